package webui

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/schema"
)

// The interface's strings live in web/src/i18n.js: one dictionary per
// language, and English names for the built-in Chinese schema. A string
// that one language lacks shows as its key; a schema name without English
// shows in Chinese to an English reader.

var (
	dictStart = regexp.MustCompile(`(?m)^const (zh|en) = \{$`)
	dictKey   = regexp.MustCompile(`(?m)^  (?:'([^']+)'|([a-zA-Z]+)):`)
	usedKey   = regexp.MustCompile(`\bt\('([a-z][a-zA-Z0-9.-]*)'[,)]`)
	nameKey   = regexp.MustCompile(`(?m)^\s+(?:([^\s:'{}]+)|'([^']+)'): '`)
)

func readSource(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	root := filepath.Join("..", "..", "web", "src")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".js") {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = string(b)
		return err
	})
	if err != nil {
		t.Fatalf("read the interface's source: %v", err)
	}
	return files
}

// dictionaries reads the keys of each language's dictionary.
func dictionaries(t *testing.T, src string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	starts := dictStart.FindAllStringSubmatchIndex(src, -1)
	if len(starts) != 2 {
		t.Fatalf("want the zh and en dictionaries in i18n.js, found %d", len(starts))
	}
	for _, m := range starts {
		lang := src[m[2]:m[3]]
		body := src[m[1]:]
		body = body[:strings.Index(body, "\n};")]
		for _, k := range dictKey.FindAllStringSubmatch(body, -1) {
			out[lang] = append(out[lang], k[1]+k[2])
		}
	}
	return out
}

func TestEveryStringInBothLanguages(t *testing.T) {
	files := readSource(t)
	i18n := files[filepath.Join("..", "..", "web", "src", "i18n.js")]
	dicts := dictionaries(t, i18n)
	has := map[string]map[string]bool{}
	for lang, keys := range dicts {
		has[lang] = map[string]bool{}
		for _, k := range keys {
			if has[lang][k] {
				t.Errorf("%s: %q given twice", lang, k)
			}
			has[lang][k] = true
		}
	}
	for _, pair := range [][2]string{{"zh", "en"}, {"en", "zh"}} {
		for _, k := range dicts[pair[0]] {
			if !has[pair[1]][k] {
				t.Errorf("%q is in %s but not in %s", k, pair[0], pair[1])
			}
		}
	}
	if len(dicts["zh"]) < 100 {
		t.Fatalf("read only %d keys from i18n.js: has its layout changed?", len(dicts["zh"]))
	}
	used := 0
	for path, src := range files {
		for _, m := range usedKey.FindAllStringSubmatch(src, -1) {
			used++
			if !has["zh"][m[1]] || !has["en"][m[1]] {
				t.Errorf("%s uses %q, which a dictionary lacks", filepath.Base(path), m[1])
			}
		}
	}
	if used < 100 {
		t.Fatalf("found only %d uses of t('…'): has the call changed?", used)
	}
}

func TestSchemaNamesHaveEnglish(t *testing.T) {
	src := readSource(t)[filepath.Join("..", "..", "web", "src", "i18n.js")]
	start := strings.Index(src, "export const namesEn = {")
	if start < 0 {
		t.Fatal("i18n.js has no namesEn")
	}
	body := src[start:]
	body = body[:strings.Index(body, "\n};")]
	en := map[string]bool{}
	for _, m := range nameKey.FindAllStringSubmatch(body, -1) {
		en[m[1]+m[2]] = true
	}
	// Several pairs share a line: read them all.
	for _, pair := range regexp.MustCompile(`([^\s,{]+): '`).FindAllStringSubmatch(body, -1) {
		en[strings.Trim(pair[1], "'")] = true
	}
	s := schema.MustLoad(schema.ZhHistory)
	var names []string
	for _, e := range s.EntityTypes {
		names = append(names, e.Name)
	}
	for _, r := range s.RelationTypes {
		names = append(names, r.Name)
	}
	for _, a := range s.AttributeTypes {
		names = append(names, a.Name)
	}
	// The kinds of name the extractors give besides the schema's.
	names = append(names, "名", "庙号", "称号", "封号", "姓字")
	for _, n := range names {
		if !en[n] {
			t.Errorf("%s of the zh-history schema has no English in namesEn", n)
		}
	}
	if !slices.Contains(names, "消极态度倾向") {
		t.Fatal("the schema lost 消极态度倾向: is this the right schema?")
	}
}
