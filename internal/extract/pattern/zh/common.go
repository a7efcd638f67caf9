package zh

import (
	"sync"

	"golang.org/x/text/encoding/simplifiedchinese"
)

// commonChars holds the 3,755 characters of the first level of GB 2312,
// the ones in everyday use. A bare given name of one rare character (罴,
// 觊, 璠) is far more likely a name than one of a common character (安,
// 德), which is usually a word.
var commonChars = sync.OnceValue(func() runeSet {
	var m runeSet
	dec := simplifiedchinese.GBK.NewDecoder()
	buf := make([]byte, 2)
	for hi := 0xB0; hi <= 0xD7; hi++ {
		for lo := 0xA1; lo <= 0xFE; lo++ {
			buf[0], buf[1] = byte(hi), byte(lo)
			out, err := dec.Bytes(buf)
			if err != nil {
				continue
			}
			for _, r := range string(out) {
				if isHan(r) {
					m.add(r)
				}
			}
		}
	}
	return m
})

// rare reports whether r is a Han character outside everyday use.
func rare(r rune) bool { return isHan(r) && !commonChars().has(r) }
