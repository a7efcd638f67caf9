package cached

import (
	"errors"
	"testing"
)

func TestReloadsOnANewGenerationAndKeepsNoError(t *testing.T) {
	var c Value[int, string]
	loads := 0
	load := func(v string, err error) func() (string, error) {
		return func() (string, error) { loads++; return v, err }
	}
	if _, err := c.Get(1, load("", errors.New("cancelled"))); err == nil {
		t.Fatal("the load's error was not returned")
	}
	if v, err := c.Get(1, load("a", nil)); err != nil || v != "a" || loads != 2 {
		t.Fatalf("after a failed load: %q, %v, %d loads; want a fresh load", v, err, loads)
	}
	if v, _ := c.Get(1, load("b", nil)); v != "a" || loads != 2 {
		t.Fatalf("same generation: %q after %d loads, want the value held", v, loads)
	}
	if v, _ := c.Get(2, load("b", nil)); v != "b" || loads != 3 {
		t.Fatalf("new generation: %q after %d loads, want a new load", v, loads)
	}
	c.Update(func(gen *int, _ string) { *gen = 3 })
	if v, _ := c.Get(3, load("c", nil)); v != "b" {
		t.Fatalf("a generation the value was updated to read %q, want the value held", v)
	}
}
