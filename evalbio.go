package annals

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/annals-project/annals/internal/eval/rouge"
	"github.com/annals-project/annals/internal/text"
)

// ProfileCase is a person with what the texts state of them: the gold of
// `annals eval bio` (internal/bio/openings.jsonl, from the
// biographies' openings).
type ProfileCase struct {
	Name        string `json:"name"`
	Zi          string `json:"zi"`
	NativePlace string `json:"native_place"`
	Source      string `json:"source"` // the chapter, as book/section/title
}

// ProfileScore is how many of a set's 字 and native places the profiles
// got right.
type ProfileScore struct {
	People      int     `json:"people"`
	Zi          int     `json:"zi"`           // right
	ZiAsked     int     `json:"zi_asked"`     // with a 字 in the gold
	Place       int     `json:"native_place"` // right
	PlaceAsked  int     `json:"native_place_asked"`
	Accuracy    float64 `json:"accuracy"` // (zi + native_place) / asked
	NotFound    int     `json:"not_found"`
	MeanMillis  float64 `json:"mean_ms"`
	WorstMillis float64 `json:"worst_ms"`
}

// ProfileReport scores profiles per book and over all.
type ProfileReport struct {
	Books  map[string]*ProfileScore `json:"books"`
	All    ProfileScore             `json:"all"`
	Misses []ProfileMiss            `json:"misses"`
}

// ProfileMiss is a field a profile got wrong.
type ProfileMiss struct {
	Name  string `json:"name"`
	Field string `json:"field"`
	Want  string `json:"want"`
	Got   string `json:"got"`
}

// LoadProfileCases reads a JSONL file of ProfileCase.
func LoadProfileCases(path string) ([]ProfileCase, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("profiles: %w", err)
	}
	defer f.Close()
	var out []ProfileCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var c ProfileCase
		if err := json.Unmarshal([]byte(line), &c); err != nil || c.Name == "" {
			return nil, fmt.Errorf("profiles %s:%d: not a profile (name, zi, native_place): %v", path, n, err)
		}
		out = append(out, c)
	}
	return out, sc.Err()
}

// EvalProfiles reads the profile of each case's person and scores its 字
// and native place against the case, per book.
func (w *Workspace) EvalProfiles(ctx context.Context, cases []ProfileCase) (*ProfileReport, error) {
	rep := &ProfileReport{Books: map[string]*ProfileScore{}, Misses: []ProfileMiss{}}
	var total float64
	for _, c := range cases {
		book, _, _ := strings.Cut(c.Source, "/")
		sc := rep.Books[book]
		if sc == nil {
			sc = &ProfileScore{}
			rep.Books[book] = sc
		}
		var zi, place string
		b, err := w.Bio(ctx, c.Name, BioOptions{Offline: true})
		switch {
		case err == nil:
			zi = b.Profile.Zi
			if b.Profile.NativePlace != nil {
				place = b.Profile.NativePlace.Text
			}
			ms := float64(b.Took.Microseconds()) / 1000
			total += ms
			rep.All.WorstMillis = max(rep.All.WorstMillis, ms)
			sc.WorstMillis = max(sc.WorstMillis, ms)
		case errors.Is(err, ErrNotFound):
			sc.NotFound++
			rep.All.NotFound++
		default:
			return nil, err
		}
		for _, s := range []*ProfileScore{sc, &rep.All} {
			s.add(c, zi, place)
		}
		if c.Zi != "" && !sameWord(zi, c.Zi) {
			rep.Misses = append(rep.Misses, ProfileMiss{Name: c.Name, Field: "zi", Want: c.Zi, Got: zi})
		}
		if c.NativePlace != "" && !sameWord(place, c.NativePlace) {
			rep.Misses = append(rep.Misses, ProfileMiss{Name: c.Name, Field: "native_place", Want: c.NativePlace, Got: place})
		}
	}
	for _, s := range append([]*ProfileScore{&rep.All}, values(rep.Books)...) {
		if asked := s.ZiAsked + s.PlaceAsked; asked > 0 {
			s.Accuracy = float64(s.Zi+s.Place) / float64(asked)
		}
	}
	if found := rep.All.People - rep.All.NotFound; found > 0 {
		rep.All.MeanMillis = total / float64(found)
	}
	sort.SliceStable(rep.Misses, func(i, j int) bool { return rep.Misses[i].Field < rep.Misses[j].Field })
	return rep, nil
}

// add counts one person's 字 and native place.
func (s *ProfileScore) add(c ProfileCase, zi, place string) {
	s.People++
	if c.Zi != "" {
		s.ZiAsked++
		if sameWord(zi, c.Zi) {
			s.Zi++
		}
	}
	if c.NativePlace != "" {
		s.PlaceAsked++
		if sameWord(place, c.NativePlace) {
			s.Place++
		}
	}
}

// sameWord says whether a profile's word is the gold one, variant
// characters counting as equal (子幹 and 子干, 魏郡鄴 and 魏郡邺): the
// openings keep the characters of the text, the profile may give the
// ones of another book.
func sameWord(got, want string) bool {
	return got != "" && text.FoldVariants(got) == text.FoldVariants(want)
}

func values(m map[string]*ProfileScore) []*ProfileScore {
	var out []*ProfileScore
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// BiographyScore is how biographies written without each person's own
// chapter compare with that chapter (seed 003's measures, leave one
// chapter out).
type BiographyScore struct {
	People    int `json:"people"`    // with a biography of at least one sentence
	Sentences int `json:"sentences"` // over all of them
	// ROUGE-1, -2 and -L over characters against the person's part of the
	// chapter, averaged over people.
	rouge.Scores
	// Facts are the facts the biographies state that can be looked for in
	// the chapter (a year alone cannot); Supported, those it states.
	Facts     int     `json:"facts"`
	Supported int     `json:"supported"`
	Precision float64 `json:"fact_precision"`
	// Hallucinated counts the sentences with a fact that neither the
	// chapter nor the sentence's own citations state; Rate is their share.
	Hallucinated int     `json:"hallucinated"`
	Rate         float64 `json:"hallucination_rate"`
	MeanMillis   float64 `json:"mean_ms"`
}

// EvalBiographies writes each case's person's biography with their own
// chapter (the case's source) left out of what it may rest on, and scores
// it against the part of the chapter about them: from their opening to the
// next person's, or the chapter's end.
func (w *Workspace) EvalBiographies(ctx context.Context, cases []ProfileCase) (*BiographyScore, error) {
	rep := &BiographyScore{}
	var took time.Duration
	for _, c := range cases {
		doc, err := w.db.Document(ctx, c.Source+"/")
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		b, err := w.Bio(ctx, c.Name, BioOptions{Exclude: []string{doc.Key}, Offline: true})
		if errors.Is(err, ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(b.Biography) == 0 {
			continue
		}
		took += b.Took
		section := personSection(doc.Norm, c.Name)
		var text strings.Builder
		for _, s := range b.Biography {
			text.WriteString(s.Text)
			invented := false
			for _, ch := range s.Checks {
				if ch.Value == "" {
					continue
				}
				rep.Facts++
				stated := strings.Contains(section, ch.Value)
				if stated {
					rep.Supported++
				}
				invented = invented || !stated && !ch.Passed
			}
			rep.Sentences++
			if invented {
				rep.Hallucinated++
			}
		}
		sc := rouge.Score(text.String(), section)
		rep.People++
		rep.R1 += sc.R1
		rep.R2 += sc.R2
		rep.RL += sc.RL
	}
	if rep.People > 0 {
		n := float64(rep.People)
		rep.R1, rep.R2, rep.RL = rep.R1/n, rep.R2/n, rep.RL/n
		rep.MeanMillis = float64(took.Microseconds()) / 1000 / n
	}
	if rep.Facts > 0 {
		rep.Precision = float64(rep.Supported) / float64(rep.Facts)
	}
	if rep.Sentences > 0 {
		rep.Rate = float64(rep.Hallucinated) / float64(rep.Sentences)
	}
	return rep, nil
}

// personSection is the part of a chapter about a person: from the opening
// that names him (X字 or X，) to the next line that opens another
// person's life (Y字Z，), or the end.
func personSection(chapter, name string) string {
	start := -1
	for _, cue := range []string{name + "字", name + "，", name + "者"} {
		if i := strings.Index(chapter, cue); i >= 0 && (start < 0 || i < start) {
			start = i
		}
	}
	if start < 0 {
		return chapter
	}
	rest := chapter[start:]
	lines := strings.SplitAfter(rest, "\n")
	var b strings.Builder
	for i, l := range lines {
		if i > 0 && openingLine.MatchString(l) {
			break
		}
		b.WriteString(l)
	}
	return b.String()
}

// openingLine is a line that opens a life: a name of two to four
// characters, 字 and a courtesy name.
var openingLine = regexp.MustCompile(`^\s*\p{Han}{2,4}字\p{Han}{1,3}，`)
