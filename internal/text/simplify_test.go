package text

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestToSimplified(t *testing.T) {
	cases := []struct{ in, want string }{
		{"諸葛亮", "诸葛亮"},
		{"劉備", "刘备"},
		{"關羽", "关羽"},
		{"與", "与"},
		{"乾封", "乾封"},
		{"乾德", "乾德"},
		{"乾坤", "乾坤"},
		{"乾隆", "乾隆"},
		{"乾燥", "干燥"},
		{"餅乾", "饼干"},
		{"於是", "于是"},
		{"樊於期", "樊於期"},
		{"還於邑", "还于邑"},
		{"後漢書", "后汉书"},
		{"其餘", "其余"},
		{"著書", "著书"},
		{"瞭解", "了解"},
		{"甯戚", "甯戚"},
		{"爲衆所推", "为众所推"},
		{"淸靑吿", "清青告"},
		{"雞犬", "鸡犬"},
		{"\u2F08\u2F24", "人大"},       // Kangxi radicals
		{"\uF900\uF901", "岂更"},       // compatibility ideographs
		{"abc, 123 ǎ", "abc, 123 ǎ"}, // untouched
		{"", ""},
		{classicalTrad, classicalSimp},
	}
	for _, c := range cases {
		got, m := ToSimplified(c.in)
		if got != c.want {
			t.Errorf("ToSimplified(%q) = %q, want %q", c.in, got, c.want)
		}
		if m != nil {
			t.Errorf("ToSimplified(%q): map %v, want nil", c.in, m)
		}
	}
	got, _ := ToSimplified(modernTrad)
	if !strings.HasPrefix(modernSimp, got) {
		t.Errorf("ToSimplified(modernTrad) = %q", got)
	}
}

// The generated table must be idempotent, keep the length, and keep the
// must-keep characters.
func TestTableProperties(t *testing.T) {
	tab := t2s()
	count := 0
	for r := rune(0); r < 0x10000; r++ {
		v := tab.bmp[r]
		if v == 0 {
			continue
		}
		count++
		if v == slowMark {
			continue
		}
		if tab.bmp[v] != 0 {
			t.Errorf("%c → %c → %c: not idempotent", r, rune(v), rune(tab.bmp[v]))
		}
	}
	if count < 4000 {
		t.Errorf("only %d BMP entries", count)
	}
	for _, r := range "乾甯著覆藉" {
		if got := SimplifiedRune(r); got != r {
			t.Errorf("SimplifiedRune(%c) = %c, want unchanged", r, got)
		}
	}
	for _, p := range t2sPhrases {
		if utf8.RuneCountInString(p[0]) != utf8.RuneCountInString(p[1]) {
			t.Errorf("phrase %q → %q changes length", p[0], p[1])
		}
		got, _ := ToSimplified(p[0])
		if got != p[1] {
			t.Errorf("ToSimplified(%q) = %q, want %q", p[0], got, p[1])
		}
		if again, _ := ToSimplified(got); again != got {
			t.Errorf("ToSimplified(%q) = %q, not stable", got, again)
		}
	}
	if len(t2sMulti) != 0 {
		t.Logf("%d characters change length", len(t2sMulti))
	}
}

// ASCII is skipped in blocks; a character right after a block of any
// length must still convert.
func TestToSimplifiedAfterASCII(t *testing.T) {
	for n := 0; n < 40; n++ {
		pre := strings.Repeat("a", n)
		for _, c := range []struct{ in, want string }{{"國", "国"}, {"瞭解", "了解"}, {"é國", "é国"}, {"\U00020000國", "\U00020000国"}} {
			if got, _ := ToSimplified(pre + c.in + pre); got != pre+c.want+pre {
				t.Fatalf("ToSimplified(%q) = %q", pre+c.in+pre, got)
			}
		}
	}
}

func TestSimplifiedRune(t *testing.T) {
	for in, want := range map[rune]rune{'國': '国', '乾': '乾', 'a': 'a', '国': '国', '於': '于'} {
		if got := SimplifiedRune(in); got != want {
			t.Errorf("SimplifiedRune(%c) = %c, want %c", in, got, want)
		}
	}
}

// A table whose entries change length exercises the offset map, which the
// real table never needs.
func TestOffsetMap(t *testing.T) {
	tab := newT2STable("國国", map[rune]string{'甲': "乙丙", '丁': ""}, [][2]string{{"戊己庚", "辛"}, {"壬癸", "壬癸"}}, "")
	cases := []struct {
		in, want string
		m        []int32
	}{
		{"X甲Y", "X乙丙Y", []int32{0, 1, 1, 2, 3}},
		{"國甲", "国乙丙", []int32{0, 1, 1, 2}},
		{"a戊己庚b", "a辛b", []int32{0, 1, 4, 5}},
		{"丁丁x", "x", []int32{2, 3}},
		{"國壬癸國", "国壬癸国", nil},
		{"ab甲", "ab乙丙", []int32{0, 1, 2, 2, 3}},
	}
	for _, c := range cases {
		got, m := tab.convert(c.in)
		if got != c.want || !slices.Equal(m, c.m) {
			t.Errorf("convert(%q) = %q %v, want %q %v", c.in, got, m, c.want, c.m)
		}
		checkMap(t, c.in, got, m)
	}
}

// checkMap asserts the invariants of an offset map.
func checkMap(t *testing.T, in, out string, m []int32) {
	t.Helper()
	nin, nout := utf8.RuneCountInString(in), utf8.RuneCountInString(out)
	if m == nil {
		if nin != nout {
			t.Fatalf("nil map but %d → %d code points", nin, nout)
		}
		return
	}
	if len(m) != nout+1 {
		t.Fatalf("map has %d entries for %d code points", len(m), nout)
	}
	if m[0] < 0 || int(m[len(m)-1]) != nin {
		t.Fatalf("map %v does not span [0,%d]", m, nin)
	}
	prev := -1
	for off := 0; off <= nout+2; off++ {
		o := OrigOffset(m, off)
		if o < prev {
			t.Fatalf("OrigOffset not monotone at %d: %d < %d", off, o, prev)
		}
		prev = o
	}
}

func TestOrigOffset(t *testing.T) {
	if OrigOffset(nil, 7) != 7 || OrigOffset([]int32{}, 3) != 3 {
		t.Error("nil or empty map must be the identity")
	}
	m := []int32{0, 1, 1, 2, 3}
	for off, want := range []int{0, 1, 1, 2, 3, 4, 5} {
		if got := OrigOffset(m, off); got != want {
			t.Errorf("OrigOffset(%d) = %d, want %d", off, got, want)
		}
	}
	if OrigOffset(m, -1) != -1 {
		t.Error("negative offsets pass through")
	}
}

// Random mixes of phrase, table and compatibility characters must keep
// their length. Converting twice gives the same result unless two listed
// words overlap (露覆 after 覆露), where the first pass takes the first word
// and the second pass sees the other.
func TestToSimplifiedRandomMix(t *testing.T) {
	var pool []rune
	for _, p := range t2sPhrases {
		pool = append(pool, []rune(p[0]+p[1])...)
	}
	pairs := []rune(t2sChars)
	for i := 0; i < len(pairs); i += 37 {
		pool = append(pool, pairs[i])
	}
	folds := []rune(t2sFold)
	for i := 0; i < len(folds); i += 5 {
		pool = append(pool, folds[i])
	}
	pool = append(pool, '乾', '於', '。', 'a', ' ')
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 100000; i++ {
		r := make([]rune, 1+rng.Intn(12))
		for j := range r {
			r[j] = pool[rng.Intn(len(pool))]
		}
		s := string(r)
		out, m := ToSimplified(s)
		checkMap(t, s, out, m)
		if m != nil {
			t.Fatalf("ToSimplified(%q) changed the length", s)
		}
		if again, _ := ToSimplified(out); again != out && !overlapping(s) {
			t.Fatalf("not idempotent: %q → %q → %q (%U)", s, out, again, []rune(s))
		}
	}
}

// overlapping reports whether two listed words overlap in s.
func overlapping(s string) bool {
	r := []rune(s)
	var ends []int
	for i := range r {
		for _, p := range t2sPhrases {
			for _, w := range p {
				if strings.HasPrefix(string(r[i:]), w) {
					for _, e := range ends {
						if i < e {
							return true
						}
					}
					ends = append(ends, i+len([]rune(w)))
				}
			}
		}
	}
	return false
}

// refToSimplified is a plain rune-by-rune version of ToSimplified, to check
// the hand-decoding fast paths against.
func refToSimplified(s string) string {
	t := t2s()
	for _, r := range s {
		if _, ok := t.folds[r]; ok {
			s = t.fold(s)
			break
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if p := t.match(s[i:], r); p != nil {
			b.WriteString(p.dst)
			i += len(p.src)
			continue
		}
		switch {
		case r <= 0xFFFF && t.bmp[r] != 0 && t.bmp[r] != slowMark:
			b.WriteRune(rune(t.bmp[r]))
		case t.slow[r] != "" || (r <= 0xFFFF && t.bmp[r] == slowMark):
			b.WriteString(t.slow[r])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func TestToSimplifiedMatchesReference(t *testing.T) {
	var pool []string
	for _, p := range t2sPhrases[:40] {
		pool = append(pool, p[0], p[1])
	}
	pairs := []rune(t2sChars)
	for i := 0; i < len(pairs); i += 53 {
		pool = append(pool, string(pairs[i]))
	}
	folds := []rune(t2sFold)
	for i := 0; i < len(folds); i += 97 {
		pool = append(pool, string(folds[i]))
	}
	pool = append(pool, "a", "abcdefghij", "é", "\xe4", "\xe4\xb8", "\xed\xa0\x80", "\xe0\x80\x80", "\xf0\x9f", "\x80", "\xff",
		"\U00020000", "\U0002F800", "乾", "。", " ")
	rng := rand.New(rand.NewSource(11))
	for i := 0; i < 50000; i++ {
		var b strings.Builder
		for j := rng.Intn(10); j >= 0; j-- {
			b.WriteString(pool[rng.Intn(len(pool))])
		}
		s := b.String()
		got, m := ToSimplified(s)
		if want := refToSimplified(s); got != want {
			t.Fatalf("ToSimplified(%q) = %q, reference %q", s, got, want)
		}
		checkMap(t, s, got, m)
	}
}

func TestFoldVariants(t *testing.T) {
	for in, want := range map[string]string{
		"刘幹":      "刘干",
		"卒於军":     "卒于军",
		"二千馀人":    "二千余人",
		"諸葛亮":     "诸葛亮",
		"于禁":      "于禁",
		"not Han": "not Han",
	} {
		if got := FoldVariants(in); got != want {
			t.Errorf("FoldVariants(%q) = %q, want %q", in, got, want)
		}
		if len([]rune(FoldVariants(in))) != len([]rune(in)) {
			t.Errorf("FoldVariants(%q) changed the number of characters", in)
		}
	}
}
