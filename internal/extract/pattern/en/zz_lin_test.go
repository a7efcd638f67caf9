package en

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/extract"
)

func TestLinear(t *testing.T) {
	for _, n := range []int{2000, 8000} {
		for name, unit := range map[string]string{"quotes": "\" The Art ", "mixed": "Cao Cao, the son of Cao Song, was born in Qiao in 155 and "} {
			s := strings.Repeat(unit, n)
			st := time.Now()
			New().Extract(context.Background(), extract.Input{Text: s, Lang: "en"})
			t.Logf("%s n=%d %v", name, n, time.Since(st))
		}
	}
}
