package llm

import (
	"unicode"
)

// Factors of the offline token estimate. They approximate BPE tokenizers of
// the GPT-4o / DeepSeek / Qwen families closely enough for budgeting; the
// server's own figures are used whenever it reports them.
const (
	// tokensPerHan: one Han, kana or Hangul character is about one token
	// (often a little less for common characters, more for rare ones).
	tokensPerHan = 1.0
	// tokensPerWord: English runs about 0.75 words per token, so 4/3 tokens
	// a word; longer words are split further (see wordTokens).
	tokensPerWord = 4.0 / 3.0
	// digitsPerToken: numbers are cut into groups of up to three digits.
	digitsPerToken = 3
	// Chat framing: each message costs a few tokens of role markers, and
	// the reply is primed with a few more.
	tokensPerMessage = 4
	tokensPerReply   = 3
)

// EstimateTokens estimates the number of tokens in s without a model
// tokenizer: Han, kana and Hangul characters count tokensPerHan each, Latin
// words 4/3 each (0.75 words a token; a word of more than 8 letters counts
// one more word for every further 8), digit runs one token per 3 digits, and
// every punctuation mark or symbol one token. Whitespace is free.
func EstimateTokens(s string) int {
	var (
		han    int
		words  float64
		digits int
		punct  int
		// run is the current letter or digit run; kind 'a' letters, '0' digits.
		run  int
		kind byte
	)
	flush := func() {
		switch kind {
		case 'a':
			words += wordTokens(run)
		case '0':
			digits += (run + digitsPerToken - 1) / digitsPerToken
		}
		run, kind = 0, 0
	}
	for _, r := range s {
		switch {
		case isCJK(r):
			flush()
			han++
		case unicode.IsLetter(r) || unicode.IsMark(r):
			if kind != 'a' {
				flush()
				kind = 'a'
			}
			run++
		case unicode.IsDigit(r):
			if kind != '0' {
				flush()
				kind = '0'
			}
			run++
		case unicode.IsSpace(r):
			flush()
		default:
			flush()
			punct++
		}
	}
	flush()
	return int(float64(han)*tokensPerHan+words+0.5) + digits + punct
}

// wordTokens is the token cost of a Latin word of n letters.
func wordTokens(n int) float64 {
	w := 1 + (n-1)/8
	return float64(w) * tokensPerWord
}

// EstimateMessages estimates the prompt tokens of a chat request, framing
// included.
func EstimateMessages(msgs []Message) int {
	n := tokensPerReply
	for _, m := range msgs {
		n += tokensPerMessage + EstimateTokens(m.Role) + EstimateTokens(m.Content)
	}
	return n
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
