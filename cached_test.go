package annals

import (
	"context"
	"testing"
)

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
