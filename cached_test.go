package annals

import (
	"context"
	"errors"
	"testing"
)

func TestCachedReloadsOnANewGenerationAndKeepsNoError(t *testing.T) {
	var c cached[int, string]
	loads := 0
	load := func(v string, err error) func() (string, error) {
		return func() (string, error) { loads++; return v, err }
	}
	if _, err := c.get(1, load("", errors.New("cancelled"))); err == nil {
		t.Fatal("the load's error was not returned")
	}
	if v, err := c.get(1, load("a", nil)); err != nil || v != "a" || loads != 2 {
		t.Fatalf("after a failed load: %q, %v, %d loads; want a fresh load", v, err, loads)
	}
	if v, _ := c.get(1, load("b", nil)); v != "a" || loads != 2 {
		t.Fatalf("same generation: %q after %d loads, want the value held", v, loads)
	}
	if v, _ := c.get(2, load("b", nil)); v != "b" || loads != 3 {
		t.Fatalf("new generation: %q after %d loads, want a new load", v, loads)
	}
	c.update(func(gen *int, _ string) { *gen = 3 })
	if v, _ := c.get(3, load("c", nil)); v != "b" {
		t.Fatalf("a generation the value was updated to read %q, want the value held", v)
	}
}

// A Warm cancelled before it read anything leaves nothing behind: the
// next question finds the passages by their vectors.
func TestCancelledWarmDoesNotSpoilLaterQuestions(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexTexts(t, map[string]string{"a.txt": "诸葛亮字孔明，琅邪阳都人也。躬耕陇亩，好为梁父吟。"})
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := ws.Warm(cancelled); err == nil {
		t.Fatal("a cancelled Warm reported success")
	}
	hits, err := ws.nearestChunks(ctx, nil, "躬耕陇亩", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("after a cancelled Warm: %v, %v; want the passage by its vector", hits, err)
	}
	if _, err := ws.Ask(ctx, "诸葛亮字什么？", AskOptions{}); err != nil {
		t.Fatal(err)
	}
}
