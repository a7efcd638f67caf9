package annals_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

func TestBioOfTheDemoCorpus(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	b, err := ws.Bio(ctx, "孔明", annals.BioOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := b.Profile
	if b.Name != "诸葛亮" || p.Zi != "孔明" || p.NativePlace == nil || p.NativePlace.Text != "琅邪阳都" {
		t.Fatalf("profile: %s, 字 %q, native place %+v", b.Name, p.Zi, p.NativePlace)
	}
	if p.Died == nil || *p.Died.Year != 234 || p.Born == nil || *p.Born.Year != 181 {
		t.Fatalf("life: %+v – %+v", p.Born, p.Died)
	}
	if len(b.Biography) < 4 {
		t.Fatalf("a short biography: %+v", b.Biography)
	}
	for _, s := range b.Biography {
		if len(s.Citations) == 0 || !s.Verified {
			t.Errorf("%q: %d citations, verified %v, checks %+v", s.Text, len(s.Citations), s.Verified, s.Checks)
		}
	}
	if !strings.HasPrefix(b.Biography[0].Text, "诸葛亮，字孔明，琅邪阳都人") {
		t.Errorf("the biography should open with who he was: %q", b.Biography[0].Text)
	}
	if _, err := ws.Bio(ctx, "孔明", annals.BioOptions{Style: "ornate"}); err == nil {
		t.Error("an unknown style should be refused")
	}
	if _, err := ws.Bio(ctx, "五丈原", annals.BioOptions{}); !errors.Is(err, annals.ErrNotFound) {
		t.Errorf("a place has no biography: %v", err)
	}
}

func TestEvalProfilesScoresEachField(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	cases := []annals.ProfileCase{
		{Name: "诸葛亮", Zi: "孔明", NativePlace: "琅邪阳都", Source: "三国人物/蜀/诸葛亮"},
		{Name: "诸葛亮", Zi: "子瑜", NativePlace: "", Source: "三国人物/蜀/诸葛亮"}, // wrong on purpose
		{Name: "无此人", Zi: "某", Source: "三国人物/蜀/无"},
	}
	rep, err := ws.EvalProfiles(ctx, cases)
	if err != nil {
		t.Fatal(err)
	}
	s := rep.Books["三国人物"]
	if s == nil || s.People != 3 || s.Zi != 1 || s.ZiAsked != 3 || s.Place != 1 || s.PlaceAsked != 1 || s.NotFound != 1 {
		t.Fatalf("scores: %+v", s)
	}
	if want := 2.0 / 4; s.Accuracy != want || rep.All.Accuracy != want {
		t.Errorf("accuracy %v, all %v, want %v", s.Accuracy, rep.All.Accuracy, want)
	}
	if len(rep.Misses) != 2 || rep.Misses[0].Want != "子瑜" && rep.Misses[1].Want != "子瑜" {
		t.Errorf("misses: %+v", rep.Misses)
	}

	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"name\":\"诸葛亮\",\"zi\":\"孔明\"}\nnot json\n"), 0o644)
	if _, err := annals.LoadProfileCases(bad); err == nil || !strings.Contains(err.Error(), ":2:") {
		t.Errorf("a malformed line should be named: %v", err)
	}
}

// An entity page's life span works out the birth from the age at death
// where no sentence dates it.
func TestLifeSpanWorksOutTheBirth(t *testing.T) {
	ws, _ := indexDemo(t)
	v, err := ws.Entity(context.Background(), "诸葛亮", annals.EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Born == nil || *v.Born != 181 || v.Died == nil || *v.Died != 234 {
		t.Fatalf("life: %v – %v", v.Born, v.Died)
	}
}

// A biography written without the person's own chapter rests on the
// others alone, and is scored against that chapter.
func TestBiographiesWithTheirOwnChapterLeftOut(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexDemo(t)
	own := "三国人物/蜀/诸葛亮/text.txt"
	b, err := ws.Bio(ctx, "诸葛亮", annals.BioOptions{Exclude: []string{own}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range b.Biography {
		for _, c := range s.Citations {
			if c.Doc == own {
				t.Fatalf("%q cites the chapter left out", s.Text)
			}
		}
	}
	if b.Profile.Zi != "" {
		t.Errorf("only his own chapter gives his 字, yet the profile has %q", b.Profile.Zi)
	}
	rep, err := ws.EvalBiographies(ctx, []annals.ProfileCase{{Name: "诸葛亮", Zi: "孔明", Source: "三国人物/蜀/诸葛亮"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.People != 1 || rep.Sentences == 0 || rep.Facts == 0 || rep.Supported == 0 || rep.R1 <= 0 || rep.Hallucinated != 0 {
		t.Fatalf("report: %+v", rep)
	}
}
