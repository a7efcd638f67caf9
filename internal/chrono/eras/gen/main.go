// Command gen converts the DILA Authority Database of Chinese time, a
// MySQL dump, into the era and ruler table that package eras embeds:
//
//	go run ./internal/chrono/eras/gen -in shared/data/eras/dila_authority_time_chinese.sql -out internal/chrono/eras/table.json
//
// or, from the package directory, go generate. The output is JSON with one
// era or ruler a line, so that changes read well in a diff.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/annals-project/annals/internal/chrono/eras/dila"
	"github.com/annals-project/annals/internal/text"
)

func main() {
	in := flag.String("in", "", "DILA dump (dila_authority_time_chinese.sql)")
	out := flag.String("out", "table.json", "table to write")
	quiet := flag.Bool("q", false, "do not print warnings")
	flag.Parse()
	if *in == "" {
		fmt.Fprintln(os.Stderr, "gen: -in is required")
		os.Exit(2)
	}
	if err := run(*in, *out, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, out string, quiet bool) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	tables, err := dila.Parse(string(src))
	if err != nil {
		return err
	}
	simplify := func(s string) string { t, _ := text.ToSimplified(s); return t }
	eras, rulers, warnings, err := dila.Build(tables, simplify)
	if err != nil {
		return err
	}
	if !quiet {
		for _, w := range warnings {
			fmt.Fprintln(os.Stderr, "gen: warning:", w)
		}
	}
	data, err := Encode(eras, rulers)
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen: %d eras, %d rulers, %d bytes → %s\n", len(eras), len(rulers), len(data), out)
	return nil
}

// Encode writes {"eras": […], "rulers": […]}, one element a line.
func Encode(eras []dila.Era, rulers []dila.Ruler) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\"eras\": [\n")
	if err := lines(&b, eras); err != nil {
		return nil, err
	}
	b.WriteString("],\n\"rulers\": [\n")
	if err := lines(&b, rulers); err != nil {
		return nil, err
	}
	b.WriteString("]}\n")
	return b.Bytes(), nil
}

func lines[T any](b *bytes.Buffer, items []T) error {
	for i, it := range items {
		j, err := json.Marshal(it)
		if err != nil {
			return err
		}
		b.Write(j)
		if i < len(items)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	return nil
}
