package annals

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
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
		b, err := w.Bio(ctx, c.Name, BioOptions{})
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
		if c.Zi != "" && zi != c.Zi {
			rep.Misses = append(rep.Misses, ProfileMiss{Name: c.Name, Field: "zi", Want: c.Zi, Got: zi})
		}
		if c.NativePlace != "" && place != c.NativePlace {
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
		if zi == c.Zi {
			s.Zi++
		}
	}
	if c.NativePlace != "" {
		s.PlaceAsked++
		if place == c.NativePlace {
			s.Place++
		}
	}
}

func values(m map[string]*ProfileScore) []*ProfileScore {
	var out []*ProfileScore
	for _, v := range m {
		out = append(out, v)
	}
	return out
}
