package vi

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/extract"
)

func TestPathological(t *testing.T) {
	for name, s := range map[string]string{
		"caps":   strings.Repeat("Lê Lợi Trần Hưng Đạo Nguyễn ", 8000),
		"dashes": "(" + strings.Repeat("181-", 20000) + ")",
		"parens": strings.Repeat("( ", 20000),
		"words":  strings.Repeat("sinh năm tại là con của , ", 8000),
		"quotes": strings.Repeat("\" The Art ", 8000),
		"mixed":  strings.Repeat("Lê Lợi, con của Lê Khoáng, sinh năm 1385 tại Lam Sơn và ", 2000),
	} {
		st := time.Now()
		_, err := New().Extract(context.Background(), extract.Input{Text: s, Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %d KB: %v", name, len(s)/1024, time.Since(st))
	}
}
