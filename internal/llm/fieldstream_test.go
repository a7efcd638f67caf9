package llm

import (
	"encoding/json"
	"strings"
	"testing"
)

// feed writes s to a FieldStream in pieces of n bytes and returns what it
// emitted.
func feed(field, s string, n int) string {
	var got strings.Builder
	f := NewFieldStream(field, func(t string) { got.WriteString(t) })
	for i := 0; i < len(s); i += n {
		f.Write(s[i:min(len(s), i+n)])
	}
	return got.String()
}

func TestFieldStreamDecodesTheFieldAsItComes(t *testing.T) {
	for _, c := range []struct{ reply, want string }{
		{`{"answer":"诸葛亮字孔明。","citations":[1]}`, "诸葛亮字孔明。"},
		{"```json\n{ \"unable\": false, \"answer\" : \"line\\none \\\"quoted\\\" \\\\ \\u5b54\\u660e \\ud834\\udd1e\" }\n```", "line\none \"quoted\" \\ 孔明 𝄞"},
		{`{"citations":[2],"answer":"He died in 234."}`, "He died in 234."},
		{`{"unable":true}`, ""},
		{`{"answer":"cut off before the end`, "cut off before the end"},
	} {
		for _, n := range []int{1, 2, 3, 5, 7, 1000} {
			if got := feed("answer", c.reply, n); got != c.want {
				t.Errorf("pieces of %d bytes of %q: emitted %q, want %q", n, c.reply, got, c.want)
			}
		}
	}
}

func FuzzFieldStream(f *testing.F) {
	f.Add(`{"answer":"诸葛亮\u5b57孔明\n"}`, 3)
	f.Add(`{"answer":"\ud834\udd1e\"x"}`, 1)
	f.Fuzz(func(t *testing.T, s string, n int) {
		if n < 1 || n > 64 {
			n = 1 + (n%64+64)%64
		}
		got := feed("answer", s, n)
		// Split anywhere, the stream emits the same as all at once.
		if all := feed("answer", s, len(s)+1); got != all {
			t.Fatalf("pieces of %d gave %q, the whole gave %q", n, got, all)
		}
		// For a reply that is valid JSON, it is the field's value.
		var v struct {
			Answer *string `json:"answer"`
		}
		if json.Unmarshal([]byte(s), &v) == nil && v.Answer != nil && strings.HasPrefix(s, `{"answer":"`) {
			if got != *v.Answer {
				t.Fatalf("emitted %q, the field is %q", got, *v.Answer)
			}
		}
	})
}
