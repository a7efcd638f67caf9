package annals_test

import (
	"context"
	"errors"
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
