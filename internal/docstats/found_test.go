package docstats

import "testing"

func TestFoundBefore(t *testing.T) {
	f := NewFound()
	f.Add(0, "胜", "地点")
	f.Add(2, "胜", "人物")
	f.Add(3, "胜", "人物")
	f.Add(3, "白公", "爵位")
	for _, c := range []struct {
		name string
		k    int
		typ  string
		n    int
	}{
		{"胜", 0, "", 0},
		{"胜", 1, "地点", 1},
		{"胜", 3, "地点", 2}, // a tie: the first found
		{"胜", 4, "人物", 3},
		{"白公", 3, "", 0},
		{"白公", 9, "爵位", 1},
		{"白", 9, "", 0},
	} {
		typ, n := f.Before([]byte(c.name), c.k)
		if typ != c.typ || n != c.n {
			t.Errorf("%s before sentence %d: %q × %d, want %q × %d", c.name, c.k, typ, n, c.typ, c.n)
		}
	}
	var none *Found
	if _, n := none.Before([]byte("胜"), 5); n != 0 {
		t.Error("a nil record found something")
	}
}
