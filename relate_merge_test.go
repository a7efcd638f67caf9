package annals

import (
	"context"
	"strings"
	"testing"
)

// A merge made while the workspace is open reaches relation reasoning: the
// graph it holds in memory is read again once alignment wrote anything.
func TestRelateSeesMerges(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexTexts(t, map[string]string{
		"a.txt": "刘禅子刘谌。",
		"b.txt": "后主与曹操相见于许。",
	})
	through := func() bool {
		res, err := ws.Relate(ctx, "刘谌", "曹操", RelateOptions{NoFeed: true, Top: 30})
		if err != nil {
			t.Fatal(err)
		}
		// The path is ranked, whether or not its last hop states a relation.
		for _, p := range append(res.Paths, res.Left...) {
			if strings.Join(p.Names, " ") == "刘谌 刘禅 曹操" {
				return true
			}
		}
		return false
	}
	if through() {
		t.Fatal("刘谌 reaches 曹操 through 后主 before 后主 is known to be 刘禅")
	}
	if _, err := ws.MergeNames(ctx, []string{"刘禅", "后主"}, "the same man", nil); err != nil {
		t.Fatal(err)
	}
	if !through() {
		t.Fatal("after the merge 刘谌 should reach 曹操 through his father")
	}
}
