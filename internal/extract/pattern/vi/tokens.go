package vi

import (
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// Tone marks on open syllables are placed two ways (hoà / hòa, thuý / thúy);
// keys use the newer placement.
var toneEnds = map[string]string{
	"oà": "òa", "oá": "óa", "oả": "ỏa", "oã": "õa", "oạ": "ọa",
	"oè": "òe", "oé": "óe", "oẻ": "ỏe", "oẽ": "õe", "oẹ": "ọe",
	"uỳ": "ùy", "uý": "úy", "uỷ": "ủy", "uỹ": "ũy", "uỵ": "ụy",
}

// key is the form a word is compared in: lower case, composed (NFC), with
// tone marks placed one way.
func key(w string) string {
	k := strings.ToLower(norm.NFC.String(w))
	rs := []rune(k)
	if n := len(rs); n >= 2 {
		end := string(rs[n-2:])
		if to, ok := toneEnds[end]; ok && !(rs[n-2] == 'u' && n >= 3 && rs[n-3] == 'q') {
			k = string(rs[:n-2]) + to
		}
	}
	return k
}

// tokenizer keeps hyphenated and apostrophised syllables whole and reads
// 1.000 and 1,000 as one number.
var tokenizer = &latin.Tokenizer{
	Key: func(text string, kind latin.Kind) string {
		if kind == latin.Word {
			return key(text)
		}
		return text
	},
	Quotes:    "“”«»„",
	Thousands: ".,",
}
