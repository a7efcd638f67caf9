package featurehash

import "testing"

func TestFeatTableAgreesWithAMap(t *testing.T) {
	tab := NewTable(0)
	want := map[uint64]int32{}
	// Hashes alike in their low bits, and zero, which is a valid key.
	for i := range 5000 {
		h := uint64(i) << 32
		if i%3 == 0 {
			h = uint64(i) * 0xff51afd7ed558ccd
		}
		tab.Put(h, int32(i))
		want[h] = int32(i)
	}
	tab.Put(0, 7) // overwrite
	want[0] = 7
	if tab.Len() != len(want) {
		t.Fatalf("len %d, want %d", tab.Len(), len(want))
	}
	for h, r := range want {
		if got, ok := tab.Get(h); !ok || got != r {
			t.Fatalf("get(%#x) = %d %v, want %d", h, got, ok, r)
		}
	}
	if _, ok := tab.Get(12345); ok {
		t.Error("a hash never put was found")
	}
	seen := 0
	tab.Each(func(h uint64, r int32) {
		seen++
		if want[h] != r {
			t.Errorf("each: %#x → %d, want %d", h, r, want[h])
		}
	})
	if seen != len(want) {
		t.Errorf("each saw %d, want %d", seen, len(want))
	}
}
