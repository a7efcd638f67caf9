// Command gen_t2s writes t2s_table.go, the traditional-to-simplified table
// the text package uses at run time. It asks OpenCC ("t2s") about every CJK
// code point and every entry of OpenCC's phrase dictionary, so that the
// package itself never loads OpenCC.
//
// Run it with `go generate ./internal/text/`.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
	"golang.org/x/text/unicode/norm"
)

// blocks are the ranges whose code points are looked up one by one.
var blocks = [][2]rune{
	{0x2F00, 0x2FDF},   // Kangxi radicals (PDF extraction emits them for ideographs)
	{0x2E80, 0x2EFF},   // CJK radicals supplement
	{0x3400, 0x4DBF},   // Extension A
	{0x4E00, 0x9FFF},   // unified ideographs
	{0xF900, 0xFAFF},   // compatibility ideographs
	{0x20000, 0x2A6DF}, // Extension B
	{0x2A700, 0x2B73F}, // Extension C
	{0x2B740, 0x2B81F}, // Extension D
	{0x2B820, 0x2CEAF}, // Extension E
	{0x2CEB0, 0x2EBEF}, // Extension F
	{0x2EBF0, 0x2EE5F}, // Extension I
	{0x2F800, 0x2FA1F}, // compatibility ideographs supplement
	{0x30000, 0x3134F}, // Extension G
	{0x31350, 0x323AF}, // Extension H
}

// keep lists characters OpenCC simplifies although the simplified form
// loses a distinction classical text needs: 乾 is qián in era names (乾封,
// 乾德) and in 乾坤, and 甯 is a surname and place distinct from 寧.
var keep = map[rune]bool{'乾': true, '甯': true}

// variants maps old or regional glyph variants that OpenCC leaves alone to
// the standard form; OpenCC then simplifies the result if needed.
var variants = map[rune]rune{
	'淸': '清', '靑': '青', '吿': '告', '値': '值', '緖': '緒', '汚': '污',
	'擡': '抬', '罋': '瓮', '痺': '痹', '槪': '概', '漑': '溉', '曁': '暨',
	'鄕': '鄉', '愼': '慎', '顚': '顛', '塡': '填', '敍': '敘', '尙': '尚',
	'歳': '歲', '衞': '衛', '硏': '研', '姸': '妍', '幷': '并', '竝': '並',
	'倂': '併', '兎': '兔', '卽': '即', '旣': '既', '敎': '教', '戶': '户',
	'衹': '只', '秖': '只', '粧': '妝',
}

// ganWords are words where 乾 means "dry" and becomes 干 even though 乾
// alone is kept.
var ganWords = []string{
	"乾燥", "乾枯", "乾涸", "乾旱", "乾糧", "乾淨", "乾脆", "乾杯", "乾草",
	"乾渴", "乾裂", "餅乾", "乾柴", "乾肉", "乾薑", "乾癟", "乾貨", "乾果",
	"乾菜", "乾魚", "乾糙", "乾咳", "乾笑", "乾瞪眼", "外強中乾", "口乾舌燥",
	"乾媽", "乾爹", "乾兒", "乾女兒", "乾洗", "乾電池", "晾乾", "曬乾", "烘乾",
	"擦乾", "風乾", "吹乾", "烤乾", "陰乾", "榨乾", "喝乾", "吸乾",
}

// dropPhrases are OpenCC phrases, mostly modern personal names with the
// surname 於, that would also match ordinary classical text (還於邑, 於其一)
// and there keep the preposition 於 from becoming 于.
var dropPhrases = map[string]bool{
	"於世成": true, "於仲完": true, "於倫": true, "於其一": true, "於則": true,
	"於勇明": true, "於坦": true, "於崇文": true, "於忠祥": true, "於惟一": true,
	"於敖": true, "於梨華": true, "於清言": true, "於琳": true, "於竹屋": true,
	"於邑": true,
}

func main() {
	out := flag.String("o", "t2s_table.go", "output file")
	flag.Parse()

	cc, err := opencc.New("t2s")
	if err != nil {
		log.Fatal(err)
	}
	conv := func(s string) string {
		r, err := cc.Convert(s)
		if err != nil {
			log.Fatalf("convert %q: %v", s, err)
		}
		return r
	}

	// One step: variant folding and Unicode normalisation, then OpenCC.
	step := func(r rune) string {
		if keep[r] {
			return string(r)
		}
		src := string(r)
		if v, ok := variants[r]; ok {
			src = string(v)
		} else if isCompat(r) {
			// Compatibility ideographs and radicals stand for an ordinary
			// ideograph; NFKC gives it.
			src = norm.NFKC.String(src)
		}
		if utf8.RuneCountInString(src) != 1 {
			return string(r)
		}
		if n, _ := utf8.DecodeRuneInString(src); keep[n] {
			return src
		}
		return conv(src)
	}

	// fold records what step rewrote before asking OpenCC: the ordinary
	// character behind a compatibility ideograph, radical or variant.
	fold := map[rune]rune{}
	for _, b := range blocks {
		for r := b[0]; r <= b[1]; r++ {
			if keep[r] {
				continue
			}
			if v, ok := variants[r]; ok {
				fold[r] = v
			} else if isCompat(r) {
				if n := []rune(norm.NFKC.String(string(r))); len(n) == 1 && n[0] != r {
					fold[r] = n[0]
				}
			}
		}
	}

	chars := map[rune]string{}
	for _, b := range blocks {
		for r := b[0]; r <= b[1]; r++ {
			if o := step(r); o != string(r) {
				chars[r] = o
			}
		}
	}
	// Follow chains (variant → traditional → simplified) so that the table is
	// idempotent.
	for r, o := range chars {
		for i := 0; i < 4; i++ {
			var b strings.Builder
			for _, c := range o {
				if n, ok := chars[c]; ok && n != o {
					b.WriteString(n)
				} else {
					b.WriteRune(c)
				}
			}
			if b.String() == o {
				break
			}
			o = b.String()
		}
		chars[r] = o
	}
	charLevel := func(s string) string {
		var b strings.Builder
		for _, c := range s {
			if o, ok := chars[c]; ok {
				b.WriteString(o)
			} else {
				b.WriteRune(c)
			}
		}
		return b.String()
	}

	// The run time folds variants before it matches words, so a word
	// spelt with one is listed in ordinary characters.
	foldString := func(s string) string {
		return strings.Map(func(r rune) rune {
			if f, ok := fold[r]; ok {
				return f
			}
			return r
		}, s)
	}
	phrases := map[string]string{}
	for _, p := range readPhrases() {
		if !dropPhrases[p] {
			phrases[foldString(p)] = conv(p)
		}
	}
	for _, w := range ganWords {
		phrases[w] = strings.ReplaceAll(charLevel(w), "乾", "干")
	}
	// The converted form of a phrase must convert to itself (樊於期 stays
	// 樊於期 rather than becoming 樊于期 on a second pass).
	for _, q := range phrases {
		if _, ok := phrases[q]; !ok && charLevel(q) != q {
			phrases[q] = q
		}
	}
	// Only phrases whose result differs from the character table matter.
	for p, q := range phrases {
		if charLevel(p) == q {
			delete(phrases, p)
		}
	}

	write(*out, chars, phrases, fold)
}

// isCompat reports whether r is a radical or compatibility ideograph, which
// stands for an ordinary ideograph.
func isCompat(r rune) bool {
	return r < 0x3400 || (r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}

// readPhrases returns the keys of OpenCC's TSPhrases dictionary, read from
// the module cache because the package does not export it.
func readPhrases() []string {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/longbridgeapp/opencc").Output()
	if err != nil {
		log.Fatalf("locate opencc: %v", err)
	}
	f, err := os.Open(filepath.Join(strings.TrimSpace(string(dir)), "dictionary", "TSPhrases.txt"))
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	var keys []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, _, ok := strings.Cut(sc.Text(), "\t")
		if ok && k != "" {
			keys = append(keys, k)
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	return keys
}

// lit quotes s, escaping compatibility ideographs and radicals so that an
// editor that normalises text cannot silently change the table.
func lit(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case isCompat(r) || r == '"' || r == '\\':
			if r <= 0xFFFF {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func write(path string, chars map[rune]string, phrases map[string]string, fold map[rune]rune) {
	var keys []rune
	var multi []rune
	for r, o := range chars {
		if utf8.RuneCountInString(o) == 1 {
			keys = append(keys, r)
		} else {
			multi = append(multi, r)
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	sort.Slice(multi, func(i, j int) bool { return multi[i] < multi[j] })
	var pk []string
	for p := range phrases {
		pk = append(pk, p)
	}
	sort.Strings(pk)

	var b bytes.Buffer
	b.WriteString("// Code generated by gen_t2s from OpenCC t2s; DO NOT EDIT.\n\n")
	b.WriteString("package text\n\n")
	fmt.Fprintf(&b, "// t2sChars holds %d pairs of code points: each traditional or variant\n", len(keys))
	b.WriteString("// character followed by its simplified form.\n")
	b.WriteString("const t2sChars = \"\" +\n")
	const perLine = 24
	for i := 0; i < len(keys); i += perLine {
		var s strings.Builder
		for _, r := range keys[i:min(i+perLine, len(keys))] {
			s.WriteRune(r)
			s.WriteString(chars[r])
		}
		b.WriteString("\t" + lit(s.String()))
		if i+perLine < len(keys) {
			b.WriteString(" +")
		}
		b.WriteString("\n")
	}
	var fk []rune
	for r := range fold {
		fk = append(fk, r)
	}
	sort.Slice(fk, func(i, j int) bool { return fk[i] < fk[j] })
	fmt.Fprintf(&b, "\n// t2sFold holds %d pairs: a compatibility ideograph, radical or variant\n", len(fk))
	b.WriteString("// followed by the ordinary character it stands for, for matching words.\n")
	b.WriteString("const t2sFold = \"\" +\n")
	for i := 0; i < len(fk); i += perLine {
		var s strings.Builder
		for _, r := range fk[i:min(i+perLine, len(fk))] {
			s.WriteRune(r)
			s.WriteRune(fold[r])
		}
		b.WriteString("\t" + lit(s.String()))
		if i+perLine < len(fk) {
			b.WriteString(" +")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n// t2sMulti maps characters whose simplified form is not one code point.\n")
	b.WriteString("var t2sMulti = map[rune]string{\n")
	for _, r := range multi {
		fmt.Fprintf(&b, "\t%s: %s,\n", strings.Trim(lit(string(r)), `"`), lit(chars[r]))
	}
	b.WriteString("}\n\n")
	b.WriteString("// t2sPhrases lists words converted differently from their characters.\n")
	b.WriteString("var t2sPhrases = [][2]string{\n")
	for _, p := range pk {
		fmt.Fprintf(&b, "\t{%s, %s},\n", lit(p), lit(phrases[p]))
	}
	b.WriteString("}\n")

	src, err := format.Source(b.Bytes())
	if err != nil {
		log.Fatalf("format: %v", err)
	}
	if err := os.WriteFile(path, src, 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("%s: %d characters, %d multi, %d phrases, %d folds, %d bytes", path, len(keys), len(multi), len(pk), len(fk), len(src))
}
