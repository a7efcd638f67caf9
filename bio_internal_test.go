package annals

import (
	"context"
	"strings"
	"testing"
)

// A 字 two people share is an entity of its own; the biography asked for
// by it is of the person it far more often means.
func TestBioOfASharedCourtesyName(t *testing.T) {
	ws, _ := indexTexts(t, map[string]string{
		"诸葛亮传.txt": "诸葛亮字孔明，琅邪阳都人也。" + strings.Repeat("诸葛亮至汉中。", 6) + "孔明出祁山。",
		"胡昭传.txt":  "胡昭字孔明，颍川人也。",
	})
	b, err := ws.Bio(context.Background(), "孔明", BioOptions{Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != "诸葛亮" {
		t.Fatalf("孔明 gave the biography of %s (others %v)", b.Name, b.Others)
	}
	var others []string
	for _, o := range b.Others {
		others = append(others, o.Name)
	}
	if !strings.Contains(strings.Join(others, " "), "胡昭") {
		t.Errorf("胡昭 should be named as another it may mean: %v", others)
	}
}
