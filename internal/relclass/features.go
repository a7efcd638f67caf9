package relclass

import "github.com/annals-project/annals/internal/featurehash"

// Features are hashed (featurehash) from a template number and small
// integers (runes, type codes, buckets): a corpus has some hundreds of
// thousands of pairs to read.

// Feature templates. Their numbers are part of the model: append, never
// renumber.
const (
	fTypes          uint64 = iota + 1 // the two types, in order
	fGap                              // … with the gap's bucket
	fBetween                          // … with the runes between, when few
	fInside                           // a rune between
	fInside2                          // two runes between
	fAfterA                           // the rune after the first name
	fAfterA2                          // … and the one after it
	fBeforeB                          // the rune before the second name
	fBeforeB2                         // … and the one before it
	fBeforeA                          // the rune before the first name
	fBeforeA2                         // … and the one before it
	fAfterB                           // the rune after the second name
	fFrame                            // the runes before each name (以A为B)
	fNamesIn                          // how many names lie between, and persons
	fPauses                           // how many pauses lie between
	fFirst                            // the first name is the sentence's first (person)
	fLastA                            // the first name's last rune
	fLastB                            // the second name's last rune
	fAfterAB                          // the runes after each name
	fTypesPauses                      // the types with whether a pause lies between
	fBeforeBPersons                   // the rune before the second name, with the persons between
)

// MaxGap is the most runes between two names the classifier reads as a
// pair: 95 % of annotated relations have at most 20.
const MaxGap = 24

// Name is a name in a sentence: runes [Start, End) and its type code.
type name struct {
	start, end int
	typ        int
}

// outside stands for a rune beyond the sentence.
const outside = 1 << 32

func runeAt(rs []rune, i int) uint64 {
	if i < 0 || i >= len(rs) {
		return outside
	}
	return uint64(rs[i])
}

// isPause says whether r cuts a clause.
func isPause(r rune) bool {
	switch r {
	case '，', '、', '；', '：', ',', ';', ':', '。', '！', '？':
		return true
	}
	return false
}

func gapBucket(g int) uint64 {
	switch {
	case g <= 2:
		return uint64(g)
	case g <= 4:
		return 3
	case g <= 8:
		return 4
	case g <= 14:
		return 5
	}
	return 6
}

// pairFeatures are the features of names a (first) and b (second) of
// names, in the sentence rs. person is the type code of persons.
func pairFeatures(rs []rune, names []name, a, b int, person int, out []uint64) []uint64 {
	na, nb := names[a], names[b]
	ty := uint64(na.typ)<<8 | uint64(nb.typ)
	gap := nb.start - na.end
	out = append(out, featurehash.Of1(fTypes, ty), featurehash.Of2(fGap, ty, gapBucket(gap)))
	if gap <= 4 {
		h := featurehash.Of1(fBetween, ty)
		for i := na.end; i < nb.start; i++ {
			h = featurehash.Mix(h, uint64(rs[i]))
		}
		out = append(out, h)
	}
	pauses := 0
	for i := na.end; i < nb.start; i++ {
		out = append(out, featurehash.Of1(fInside, uint64(rs[i])))
		if i+1 < nb.start {
			out = append(out, featurehash.Of2(fInside2, uint64(rs[i]), uint64(rs[i+1])))
		}
		if isPause(rs[i]) {
			pauses++
		}
	}
	between, persons := 0, 0
	for k := a + 1; k < b; k++ {
		between++
		if names[k].typ == person {
			persons++
		}
	}
	first := uint64(0)
	if a == 0 {
		first = 1
	}
	for k := 0; k < a; k++ {
		if names[k].typ == person {
			break
		}
		if k == a-1 && na.typ == person {
			first = 2
		}
	}
	out = append(out,
		featurehash.Of2(fAfterA, ty, runeAt(rs, na.end)),
		featurehash.Of3(fAfterA2, ty, runeAt(rs, na.end), runeAt(rs, na.end+1)),
		featurehash.Of2(fBeforeB, ty, runeAt(rs, nb.start-1)),
		featurehash.Of3(fBeforeB2, ty, runeAt(rs, nb.start-2), runeAt(rs, nb.start-1)),
		featurehash.Of2(fBeforeA, ty, runeAt(rs, na.start-1)),
		featurehash.Of3(fBeforeA2, ty, runeAt(rs, na.start-2), runeAt(rs, na.start-1)),
		featurehash.Of2(fAfterB, ty, runeAt(rs, nb.end)),
		featurehash.Of3(fFrame, ty, runeAt(rs, na.start-1), runeAt(rs, nb.start-1)),
		featurehash.Of3(fNamesIn, ty, uint64(min(between, 3)), uint64(min(persons, 2))),
		featurehash.Of2(fPauses, ty, uint64(min(pauses, 3))),
		featurehash.Of2(fFirst, ty, first),
		featurehash.Of2(fLastA, ty, uint64(rs[na.end-1])),
		featurehash.Of2(fLastB, ty, uint64(rs[nb.end-1])),
		featurehash.Of3(fAfterAB, ty, runeAt(rs, na.end), runeAt(rs, nb.end)),
		featurehash.Of2(fTypesPauses, ty, uint64(min(pauses, 1))),
		featurehash.Of3(fBeforeBPersons, ty, runeAt(rs, nb.start-1), uint64(min(persons, 2))),
	)
	return out
}
