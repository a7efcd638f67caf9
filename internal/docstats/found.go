package docstats

import "unicode/utf8"

// Found records the names a reader has found in a document, sentence by
// sentence, so that a later sentence is read knowing how the document read
// the same characters before: a given name found as a person in three
// sentences (胜, 会) is likelier one in the fourth, where the sentence alone
// says little.
type Found struct {
	at map[string][]foundAt // name → where and as what, in reading order
	// lengths has bit l−1 set for each length l (up to 8 runes) of a name
	// found that starts with the rune: most runes start none, and a
	// reader looks no further there.
	lengths map[rune]uint8
	// Read is how many sentences a reader has read and recorded; the next
	// is sentence Read.
	Read int
}

type foundAt struct {
	sentence int
	typ      string
}

// NewFound returns an empty record.
func NewFound() *Found { return &Found{at: map[string][]foundAt{}, lengths: map[rune]uint8{}} }

// Add records that sentence k (from 0, in reading order) has the name,
// read as typ. Sentences are added in order.
func (f *Found) Add(k int, name, typ string) {
	f.at[name] = append(f.at[name], foundAt{k, typ})
	first, _ := utf8.DecodeRuneInString(name)
	if l := utf8.RuneCountInString(name); l >= 1 && l <= 8 {
		f.lengths[first] |= 1 << (l - 1)
	}
}

// Lengths has bit l−1 set for each length l, up to 8 runes, of the names
// found so far that start with r.
func (f *Found) Lengths(r rune) uint8 {
	if f == nil {
		return 0
	}
	return f.lengths[r]
}

// Before says how many times the name (its UTF-8 bytes) was found before
// sentence k, and as which type most often (the first found of equals).
func (f *Found) Before(name []byte, k int) (typ string, n int) {
	if f == nil {
		return "", 0
	}
	at := f.at[string(name)] // a lookup by string(bytes) does not allocate
	if len(at) == 0 || at[0].sentence >= k {
		return "", 0
	}
	if len(at) == 1 || at[1].sentence >= k {
		return at[0].typ, 1
	}
	// Rare: a name found several times; tally by type in reading order.
	var types []string
	var counts []int
	for _, a := range at {
		if a.sentence >= k {
			break
		}
		n++
		i := 0
		for i < len(types) && types[i] != a.typ {
			i++
		}
		if i == len(types) {
			types, counts = append(types, a.typ), append(counts, 0)
		}
		counts[i]++
	}
	best := 0
	for i := range counts {
		if counts[i] > counts[best] {
			best = i
		}
	}
	return types[best], n
}
