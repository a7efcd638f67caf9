package docstats

import "testing"

func TestCounts(t *testing.T) {
	s := Of([]rune("策曰：善。策乃还，策至吴。吴人喜策。"))
	// 策 opens three clauses of four uses, one of them speaking.
	if got, want := s.Use('策'), uint64(2)<<16|uint64(1)<<8|3; got != want {
		t.Errorf("use of 策 %x, want %x", got, want)
	}
	if got := s.Use('喜'); got != 0 {
		t.Errorf("use of 喜 %x, want 0 (never opens a clause)", got)
	}
	if got := s.Bigram('至', '吴'); got != 1 {
		t.Errorf("至吴 bucket %d, want 1", got)
	}
	if got := s.Bigram('吴', '至'); got != 0 {
		t.Errorf("吴至 bucket %d, want 0", got)
	}
	if got := s.Trigram('策', '至', '吴'); got != 1 {
		t.Errorf("策至吴 bucket %d, want 1", got)
	}
	many := Of([]rune("刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备刘备"))
	if got := many.Bigram('刘', '备'); got != 5 {
		t.Errorf("17 × 刘备 bucket %d, want 5", got)
	}
}

func TestShortDocumentsHaveNoCounts(t *testing.T) {
	short := []rune("策曰：善。")
	if OfDocument(short) != nil {
		t.Error("a five-character passage has counts")
	}
	long := make([]rune, MinChars)
	for i := range long {
		long[i] = '策'
	}
	if OfDocument(long) == nil {
		t.Errorf("a document of %d characters has no counts", MinChars)
	}
}

func BenchmarkOf(b *testing.B) {
	doc := []rune{}
	for i := range 20000 {
		doc = append(doc, rune(0x4e00+i*7919%3000))
	}
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		Of(doc)
	}
}
