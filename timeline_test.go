package annals

import (
	"testing"

	"github.com/annals-project/annals/internal/store"
)

// A life's year comes from the person's own chapters; between equals
// there, the other chapters decide, then the earliest.
func TestOwnFirst(t *testing.T) {
	own := map[int64]bool{1: true}
	years := []store.FactYear{
		{Year: 234, Doc: 1}, {Year: 228, Doc: 1}, // his own death, and his son's told in his chapter
		{Year: 234, Doc: 2}, {Year: 234, Doc: 3}, {Year: 222, Doc: 4}, {Year: 222, Doc: 5}, {Year: 222, Doc: 6},
	}
	if got := ownFirst(own, years); got == nil || *got != 234 {
		t.Fatalf("own chapter tied 234/228, the others say 234: got %v", got)
	}
	if got := ownFirst(map[int64]bool{}, years); got == nil || *got != 222 {
		t.Fatalf("no own chapter: the most votes, 222: got %v", got)
	}
	if got := ownFirst(own, []store.FactYear{{Year: 30, Doc: 1}, {Year: 20, Doc: 1}}); got == nil || *got != 20 {
		t.Fatalf("a tie no one breaks: the earliest: got %v", got)
	}
	if got := ownFirst(own, nil); got != nil {
		t.Fatalf("no years: %v", *got)
	}
}
