package annals_test

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals"
)

// The description is read from the facts, the same however few the view
// lists.
func TestEntityDescription(t *testing.T) {
	ws, _ := indexDemo(t)
	ctx := context.Background()
	full, err := ws.Entity(ctx, "诸葛亮", annals.EntityOptions{Relations: 500})
	if err != nil {
		t.Fatal(err)
	}
	short, err := ws.Entity(ctx, "孔明", annals.EntityOptions{Relations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(full.Description, "诸葛亮") || !strings.Contains(full.Description, "字孔明") || !strings.Contains(full.Description, "丞相") {
		t.Fatalf("description of 诸葛亮: %q", full.Description)
	}
	if short.Description != full.Description || len(short.Relations) != 1 {
		t.Fatalf("with one relation listed: %q (%d relations), with all: %q", short.Description, len(short.Relations), full.Description)
	}
}
