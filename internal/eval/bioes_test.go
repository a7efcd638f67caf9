package eval

import (
	"reflect"
	"strings"
	"testing"
)

type span struct {
	typ        string
	start, end int
}

func spans(ex Example) []span {
	var out []span
	for _, e := range ex.Entities {
		out = append(out, span{e.Type, e.Start, e.End})
	}
	return out
}

func lines(ls ...string) string { return strings.Join(ls, "\n") }

func TestParseBIOES(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		texts []string
		spans [][]span
	}{
		{
			name: "well formed, tab separated, no final newline",
			in: lines("王\tB-PER", "甲\tE-PER", "为\tO", "令\tS-OFI", "",
				"至\tO", "洛\tB-LOC", "阳\tE-LOC"),
			texts: []string{"王甲为令", "至洛阳"},
			spans: [][]span{{{"PER", 0, 2}, {"OFI", 3, 4}}, {{"LOC", 1, 3}}},
		},
		{
			name:  "space separated, CRLF, several blank lines",
			in:    "赵 B-PER\r\n某 I-PER\r\n乙 E-PER\r\n\r\n\r\n   \r\n书 S-BOOK\r\n",
			texts: []string{"赵某乙", "书"},
			spans: [][]span{{{"PER", 0, 3}}, {{"BOOK", 0, 1}}},
		},
		{
			name:  "lone I- starts an entity",
			in:    lines("甲\tO", "乙\tI-PER", "丙\tE-PER", "丁\tO"),
			texts: []string{"甲乙丙丁"},
			spans: [][]span{{{"PER", 1, 3}}},
		},
		{
			name:  "lone E- is a one-character entity",
			in:    lines("甲\tO", "乙\tE-LOC", "丙\tO"),
			texts: []string{"甲乙丙"},
			spans: [][]span{{{"LOC", 1, 2}}},
		},
		{
			name:  "B- without E- ends at the run's last token",
			in:    lines("甲\tB-PER", "乙\tI-PER", "丙\tO", "丁\tB-LOC", "", "戊\tB-OFI", "己\tI-OFI"),
			texts: []string{"甲乙丙丁", "戊己"},
			spans: [][]span{{{"PER", 0, 2}, {"LOC", 3, 4}}, {{"OFI", 0, 2}}},
		},
		{
			name:  "type change inside a run splits it",
			in:    lines("甲\tB-PER", "乙\tI-LOC", "丙\tE-LOC", "丁\tE-PER"),
			texts: []string{"甲乙丙丁"},
			spans: [][]span{{{"PER", 0, 1}, {"LOC", 1, 3}, {"PER", 3, 4}}},
		},
		{
			name:  "S- and B- close an open run",
			in:    lines("甲\tB-PER", "乙\tS-LOC", "丙\tB-PER", "丁\tB-PER", "戊\tE-PER"),
			texts: []string{"甲乙丙丁戊"},
			spans: [][]span{{{"PER", 0, 1}, {"LOC", 1, 2}, {"PER", 2, 3}, {"PER", 3, 5}}},
		},
		{
			name:  "BMES and lower-case prefixes",
			in:    lines("甲\tb-PER", "乙\tM-PER", "丙\te-PER"),
			texts: []string{"甲乙丙"},
			spans: [][]span{{{"PER", 0, 3}}},
		},
		{
			name:  "unknown tags read as O, stray lines skipped",
			in:    lines("-DOCSTART- O", "甲\tX", "乙\tB-", "丙\tS-PER", "a line of stray text", "丁\tPER", "戊"),
			texts: []string{"甲乙丙丁戊"},
			spans: [][]span{{{"PER", 2, 3}}},
		},
		{
			name:  "a space character keeps offsets aligned",
			in:    lines("甲\tS-PER", " \tO", "乙\tS-PER"),
			texts: []string{"甲 乙"},
			spans: [][]span{{{"PER", 0, 1}, {"PER", 2, 3}}},
		},
		{
			name:  "empty input",
			in:    "\n\n",
			texts: nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exs, err := ParseBIOES(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			var got [][]span
			for _, ex := range exs {
				texts = append(texts, ex.Text)
				got = append(got, spans(ex))
				for _, e := range ex.Entities {
					if want := string([]rune(ex.Text)[e.Start:e.End]); e.Text != want {
						t.Errorf("entity text %q, want %q", e.Text, want)
					}
				}
			}
			if !reflect.DeepEqual(texts, tc.texts) {
				t.Errorf("texts %q, want %q", texts, tc.texts)
			}
			if tc.spans != nil && !reflect.DeepEqual(got, tc.spans) {
				t.Errorf("spans %v, want %v", got, tc.spans)
			}
		})
	}
}

func TestParseBIOESIDsAreFirstLines(t *testing.T) {
	exs, err := ParseBIOES(strings.NewReader(lines("甲\tO", "", "", "乙\tO", "丙\tO")))
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 || exs[0].ID != "1" || exs[1].ID != "4" {
		t.Fatalf("ids %+v", exs)
	}
}

func FuzzParseBIOES(f *testing.F) {
	f.Add(lines("王\tB-PER", "甲\tE-PER", "", "令\tS-OFI"))
	f.Add(lines("甲\tI-LOC", "乙\tE-PER", "丙 B-BOOK"))
	f.Add("\t\n \tO\n\x00 E-X\n\xff\tB-PER\n")
	f.Fuzz(func(t *testing.T, in string) {
		exs, err := ParseBIOES(strings.NewReader(in))
		if err != nil {
			return
		}
		for _, ex := range exs {
			n := len([]rune(ex.Text))
			if n == 0 {
				t.Fatalf("empty sentence %+v", ex)
			}
			for _, e := range ex.Entities {
				if e.Start < 0 || e.End > n || e.Start >= e.End {
					t.Fatalf("span [%d,%d) outside %d characters of %q", e.Start, e.End, n, ex.Text)
				}
			}
		}
	})
}
