package relate

import (
	"slices"
	"testing"
)

// Any sentence and names: no panic, and a relation read is a cue's.
func FuzzReadCue(f *testing.F) {
	f.Add("孙坚之子孙策", "孙坚", "孙策", false)
	f.Add("Cao Pi, son of Cao Cao, ruled.", "Cao Cao", "Cao Pi", true)
	f.Add("甲甲甲", "甲", "甲", false)
	f.Add("\xff\xfe", "", "\xff", true)
	var types []string
	for _, c := range append(slices.Clone(zhCues), enCues...) {
		types = append(types, c.typ)
	}
	f.Fuzz(func(t *testing.T, s, x, y string, latin bool) {
		typ, _, _, ok := readCue(s, []string{x}, []string{y}, latin, nil)
		if ok != (typ != "") || ok && !slices.Contains(types, typ) {
			t.Fatalf("readCue(%q, %q, %q) = %q, %v", s, x, y, typ, ok)
		}
	})
}
