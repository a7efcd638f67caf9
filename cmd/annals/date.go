package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/annals-project/annals/internal/chrono"
	"github.com/annals-project/annals/internal/text"
)

func (a *app) dateCmd() *cobra.Command {
	var context, dynasty string
	var check int
	var checking bool
	cmd := &cobra.Command{
		Use:   "date EXPRESSION",
		Short: "Convert a historical date (建兴十二年, 孝文十年, 甲子, năm 1288 TCN) into years, or check a year",
		Long: `Reads the time expressions in EXPRESSION, after the text of --context (which
sets the era or reign in force and the current year, as the sentences before
it would), and prints each with its year, or every candidate with its dynasty
and emperor when the reading is ambiguous. Years are astronomical (−121 is
122 BCE). --check YEAR says whether the expression agrees with that year and
what the right conversion is.

A year in numerals (208, -121, 公元前122年, 122 BCE) is read the other way:
annals lists the eras and sovereigns' years that name it (208: 建安十三年).

A note follows a reading that needs one: a year past the end of its era or
reign (建安三十年 is 225, but 建安 ended in 220), or why an expression stays
unresolved (甲子 alone is a day of a sixty-day cycle). The exit status is 3 when
EXPRESSION holds no time expression or none could be placed in a year, even as
one of several candidates; the result is printed all the same, with --json too.
With --check it is 1 when the expression does not agree with the year.`,
		Example: `  annals date 建兴十二年
  annals date 208
  annals date 十二年 --context "建兴元年，封亮武乡侯。"
  annals date 建兴 --dynasty 西晋
  annals date 建兴十二年 --check 234 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			checking = cmd.Flags().Changed("check")
			expr, _ := text.ToSimplified(args[0])
			ctx := &chrono.Context{Dynasty: dynasty}
			if context != "" {
				c, _ := text.ToSimplified(context)
				chrono.Parse(c, ctx)
			}
			if checking {
				agree, cands := chrono.Check(expr, check, *ctx)
				if a.json {
					if err := a.printJSON(map[string]any{"expression": args[0], "year": check, "agrees": agree, "candidates": cands}); err != nil {
						return err
					}
				} else {
					verdict := "does not agree with"
					if agree {
						verdict = "agrees with"
					}
					a.printf("%s %s year %s\n", args[0], verdict, yearLabel(check))
					for _, c := range cands {
						a.printf("  %s  %s  (%s)\n", yearLabel(c.Year), strings.TrimSpace(c.Dynasty+" "+c.Emperor+" "+c.Era+c.Ruler), c.Reason)
					}
				}
				if !agree {
					// A script checking conversions reads the verdict from
					// the exit status, as from test(1).
					return fmt.Errorf("%s does not agree with year %s", args[0], yearLabel(check))
				}
				return nil
			}
			if year, ok := chrono.BareYear(expr); ok {
				return a.yearNames(args[0], year)
			}
			times := chrono.Parse(expr, ctx)
			if len(times) == 0 {
				return notFoundError{fmt.Sprintf("no time expression found in %q", args[0])}
			}
			if a.json {
				if err := a.printJSON(map[string]any{"expression": args[0], "times": times}); err != nil {
					return err
				}
				return unplaced(args[0], times)
			}
			for _, t := range times {
				head := t.Expr
				switch {
				case t.Resolved && t.EndYear != 0 && t.EndYear != t.Year:
					head += fmt.Sprintf(": %s to %s", yearLabel(t.Year), yearLabel(t.EndYear))
				case t.Resolved:
					head += ": " + yearLabel(t.Year)
				default:
					head += ": unresolved"
				}
				a.printf("%s  [%s, %s] %s\n", head, t.Calendar, t.Precision, strings.TrimSpace(t.Dynasty+" "+t.Emperor))
				for _, c := range t.Candidates {
					a.printf("  candidate %s  %s  (%s)\n", yearLabel(c.Year), strings.TrimSpace(c.Dynasty+" "+c.Emperor+" "+c.Era+c.Ruler), c.Reason)
				}
				for _, n := range t.Notes {
					a.printf("  note: %s\n", n)
				}
			}
			return unplaced(args[0], times)
		},
	}
	cmd.Flags().StringVar(&context, "context", "", "text that comes before the expression (sets the era, reign and year in force)")
	cmd.Flags().StringVar(&dynasty, "dynasty", "", "the text's dynasty, to choose among eras of the same name (蜀汉, 西晋 …)")
	cmd.Flags().IntVar(&check, "check", 0, "a year (astronomical, −121 for 122 BCE) to check the expression against")
	return cmd
}

// yearNames prints how the histories count a year given in numerals:
// its eras and sovereigns' years.
func (a *app) yearNames(expr string, year int) error {
	names := chrono.YearNames(year)
	if a.json {
		if err := a.printJSON(map[string]any{"expression": expr, "year": year, "names": names}); err != nil {
			return err
		}
	} else {
		a.printf("%s\n", yearLabel(year))
		for _, n := range names {
			a.printf("  %s  %s\n", n.Name, strings.TrimSpace(n.Dynasty+" "+n.Emperor))
		}
	}
	if len(names) == 0 {
		return notFoundError{fmt.Sprintf("%s: no era or sovereign's count of the table names %s", expr, yearLabel(year))}
	}
	return nil
}

// unplaced is a not-found error when no time of expr was placed in a year,
// not even as a candidate reading; nil otherwise.
func unplaced(expr string, times []chrono.Time) error {
	for _, t := range times {
		if t.Resolved || len(t.Candidates) > 0 {
			return nil
		}
	}
	why := ""
	for _, t := range times {
		if len(t.Notes) > 0 {
			why = " (the notes say why)"
		}
	}
	return notFoundError{fmt.Sprintf("%s: no year could be placed%s", expr, why)}
}

// yearLabel writes an astronomical year as a reader would: 234, 122 BCE.
func yearLabel(y int) string {
	if y <= 0 {
		return fmt.Sprintf("%d BCE", 1-y)
	}
	return fmt.Sprintf("%d", y)
}
