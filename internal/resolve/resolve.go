// Package resolve aligns entities: it decides which extracted names refer to
// the same entity, from alias dictionaries (seed 000's 主名:别名 format),
// aliases read in the text (字, 号 …) and normalised spelling. Every merge
// keeps where it came from.
package resolve

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// Version changes whenever alignment would group names differently or
// list their aliases otherwise.
const Version = "7"

// Normalize is the key under which two spellings of a name are the same:
// simplified characters, no spaces or separator dots, lower-case letters.
func Normalize(name string) string {
	s, _ := text.ToSimplified(name)
	var b strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), r == '·', r == '・', r == '•', r == '.':
			continue
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

type key struct{ name, typ string }

// Resolve groups names into entities. Names of different types never merge.
// An alias that two different main names claim is ambiguous and merges
// nothing (two people may share a 字), but stays listed as an alias of both.
//
// Merges (decided by an LLM or a person, and not undone) join their names
// too; each merged name is listed as an alias with the merge as its source.
func Resolve(names []store.NameRef, aliases []store.AliasFact, merges ...store.Merge) store.Resolution {
	uf := newUnionFind()
	byKey := map[key][]store.NameRef{}
	typesOf := map[string][]string{} // normalised name → types it occurs with
	for _, n := range names {
		k := key{Normalize(n.Name), n.Type}
		if _, seen := byKey[k]; !seen {
			typesOf[k.name] = append(typesOf[k.name], n.Type)
		}
		byKey[k] = append(byKey[k], n)
		uf.add(k)
	}

	// Names the text gives a 字 of their own are men's names: the same
	// characters as another man's 字 (蔡衍字孟喜, beside 孟喜字长卿), or
	// as his surname and 字 (李昙字云, beside 李云字行祖), are two men,
	// not one.
	ownsCourtesy := map[string]bool{}
	for _, a := range aliases {
		if a.Kind == "字" && a.DocID != 0 {
			ownsCourtesy[Normalize(a.Main)] = true
		}
	}
	aliases, courtesy := withCourtesyFullNames(aliases, byKey, ownsCourtesy)
	// Count the distinct mains that claim each alias, per source kind.
	claims := map[string]map[string]bool{}
	for _, a := range aliases {
		al := Normalize(a.Alias)
		if claims[al] == nil {
			claims[al] = map[string]bool{}
		}
		claims[al][Normalize(a.Main)] = true
	}
	isMain := map[key]int{} // keys named as main: 2 by a dictionary, 1 by the text
	pending := map[key][]kg.Alias{}
	for _, a := range aliases {
		main, al := Normalize(a.Main), Normalize(a.Alias)
		if main == "" || al == "" || main == al {
			continue
		}
		for _, t := range mainTypes(typesOf, main, al) {
			mk := key{main, t}
			uf.add(mk)
			rank := 1
			if a.Kind == "dictionary" {
				rank = 2
			}
			if isMain[mk] < rank {
				isMain[mk] = rank
			}
			pending[mk] = append(pending[mk], kg.Alias{Name: a.Alias, Kind: a.Kind, Source: a.Source})
			ak := key{al, t}
			refs, exists := byKey[ak]
			if exists && len(claims[al]) == 1 && !chapterScoped[a.Kind] && (!shortForm(a, main, al) || unmentioned(refs)) &&
				!(a.Kind == "字" && (ownsCourtesy[al] || mentioned(refs) > mentioned(byKey[mk]))) {
				uf.union(mk, ak)
			}
		}
	}

	// A man's 姓+字 joined to his 姓+名 competes with it for the
	// entity's name on equal terms: the more used one wins (项羽, not
	// 项籍; 陈胜, not 陈涉).
	for full, main := range courtesy {
		fk, mk := key{full, personType}, key{main, personType}
		if uf.find(fk) == uf.find(mk) && isMain[fk] < isMain[mk] {
			isMain[fk] = isMain[mk]
		}
	}

	for _, m := range merges {
		if m.UndoneAt != "" {
			continue
		}
		ck := key{Normalize(m.Canonical), m.Type}
		if _, ok := byKey[ck]; !ok {
			continue
		}
		if isMain[ck] < 2 {
			isMain[ck] = 2
		}
		src := fmt.Sprintf("merge:%d", m.ID)
		for _, n := range m.Names {
			nk := key{Normalize(n), m.Type}
			if _, ok := byKey[nk]; !ok || nk == ck {
				continue
			}
			uf.union(ck, nk)
			pending[ck] = append(pending[ck], kg.Alias{Name: n, Kind: "merge", Source: src})
		}
	}

	// Collect groups and choose each group's canonical name.
	groups := map[key][]key{}
	for k := range uf.parent {
		r := uf.find(k)
		groups[r] = append(groups[r], k)
	}
	var out store.Resolution
	for _, members := range groups {
		ent := buildEntity(members, byKey, isMain, pending)
		if ent != nil {
			out.Entities = append(out.Entities, *ent)
		}
	}
	sort.Slice(out.Entities, func(i, j int) bool {
		a, b := out.Entities[i], out.Entities[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		return a.Name < b.Name
	})
	return out
}

// withCourtesyFullNames adds, for each 字 read in the text, the surname
// with the 字 (项籍 字羽: 项羽) where the corpus uses that name for a
// person: the histories often call a man so (项羽, 刘季, 诸葛孔明), and
// it is his. The surname is the main name's first one or two runes,
// whichever gives a name the corpus has and that is not a man with a 字
// of his own (owns). Two people whose surname and 字 give one name claim
// it both, and it merges neither. It returns the facts with those added,
// and each added name with its main name.
func withCourtesyFullNames(aliases []store.AliasFact, byKey map[key][]store.NameRef, owns map[string]bool) ([]store.AliasFact, map[string]string) {
	out := aliases[:len(aliases):len(aliases)] // appends copy, never write into the caller's
	added := map[string]string{}
	for _, a := range aliases {
		if a.Kind != "字" || a.DocID == 0 {
			continue
		}
		main, zi := []rune(Normalize(a.Main)), []rune(Normalize(a.Alias))
		if len(zi) == 0 || len(zi) > 2 || len(main) < 2 {
			continue
		}
		for n := 1; n <= 2 && n < len(main); n++ {
			full := string(main[:n]) + string(zi)
			if _, ok := byKey[key{full, personType}]; ok && full != string(main) && !owns[full] {
				b := a
				b.Alias, b.Kind = full, CourtesyFullName
				out = append(out, b)
				added[full] = string(main)
			}
		}
	}
	return out, added
}

// CourtesyFullName is the alias kind of a surname with a 字 (诸葛孔明):
// a name of the man, not his 字.
const CourtesyFullName = "姓字"

// personType is the schema's type of persons, the only names a 字 has.
const personType = "人物"

// chapterScoped are the alias kinds of titles read as standing for a
// person within one chapter (太祖 for 曹操 in 魏书, 韩信 for 韩王信 in his
// own chapter) and of posthumous names (忠侯 is given to many): the
// extractor has already linked those mentions, and the same title
// elsewhere may be someone else's, so they never merge names corpus-wide.
// They stay listed as aliases.
var chapterScoped = map[string]bool{"庙号": true, "称号": true, "谥号": true}

// shortForm reports whether a text alias is the given name cut from the
// full name (孙晟 → 晟). Such a name means that person only inside the
// document that says so; merging it corpus-wide would hand every other 晟 to
// him, so it merges only a name nothing else mentions. It stays listed as an
// alias either way.
func shortForm(a store.AliasFact, main, alias string) bool {
	return a.Kind != "dictionary" && len([]rune(alias)) < len([]rune(main)) && strings.HasSuffix(main, alias)
}

// unmentioned reports whether no mention uses a name: only the sentence that
// gave it as an alias refers to it, so merging it touches nothing else.
func unmentioned(refs []store.NameRef) bool {
	for _, r := range refs {
		if r.Mentions > 0 {
			return false
		}
	}
	return true
}

// mentioned counts the mentions of a name's spellings. A 字 the corpus
// names more often than the man whose 字 it is (子平, a prince of 晋 as
// well as 向长's 字) is more often someone else's name than his; one he
// outnumbers (孔明 beside 诸葛亮) is his.
func mentioned(refs []store.NameRef) int {
	n := 0
	for _, r := range refs {
		n += r.Mentions
	}
	return n
}

// mainTypes picks the entity types an alias fact applies to: the types the
// main name occurs with, else those of the alias, else person.
func mainTypes(typesOf map[string][]string, main, alias string) []string {
	if ts := typesOf[main]; len(ts) > 0 {
		return ts
	}
	if ts := typesOf[alias]; len(ts) > 0 {
		return ts
	}
	return nil // an alias of a name never seen in the corpus: nothing to attach it to
}

func buildEntity(members []key, byKey map[key][]store.NameRef, isMain map[key]int, pending map[key][]kg.Alias) *store.ResolvedEntity {
	type cand struct {
		k        key
		display  string
		mentions int
		main     int
	}
	var cands []cand
	var ids []int64
	for _, k := range members {
		refs := byKey[k]
		if len(refs) == 0 {
			continue // a main name known only from a dictionary
		}
		c := cand{k: k, main: isMain[k]}
		best := -1
		for _, r := range refs {
			ids = append(ids, r.ID)
			c.mentions += r.Mentions
			if r.Mentions > best {
				best, c.display = r.Mentions, r.Name
			}
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.main != b.main {
			return a.main > b.main
		}
		if a.mentions != b.mentions {
			return a.mentions > b.mentions
		}
		if len([]rune(a.display)) != len([]rune(b.display)) {
			return len([]rune(a.display)) > len([]rune(b.display))
		}
		return a.display < b.display
	})
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	ent := &store.ResolvedEntity{Name: cands[0].display, Type: cands[0].k.typ, NameIDs: ids}
	seen := map[string]bool{}
	add := func(a kg.Alias) {
		if Normalize(a.Name) == cands[0].k.name {
			return
		}
		id := a.Name + "\x00" + a.Kind + "\x00" + a.Source
		if !seen[id] {
			seen[id] = true
			ent.Aliases = append(ent.Aliases, a)
		}
	}
	for _, k := range members {
		for _, a := range pending[k] {
			add(a)
		}
	}
	// Names merged into the entity that no alias fact lists (another
	// spelling, or a main name of a merged group) are aliases too.
	for _, c := range cands[1:] {
		listed := false
		for _, a := range ent.Aliases {
			if Normalize(a.Name) == c.k.name {
				listed = true
				break
			}
		}
		if !listed {
			add(kg.Alias{Name: c.display, Kind: "variant", Source: "normalised"})
		}
	}
	sort.Slice(ent.Aliases, func(i, j int) bool {
		a, b := ent.Aliases[i], ent.Aliases[j]
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.Source < b.Source
	})
	return ent
}

type unionFind struct{ parent map[key]key }

func newUnionFind() *unionFind { return &unionFind{parent: map[key]key{}} }

func (u *unionFind) add(k key) {
	if _, ok := u.parent[k]; !ok {
		u.parent[k] = k
	}
}

func (u *unionFind) find(k key) key {
	for u.parent[k] != k {
		u.parent[k] = u.parent[u.parent[k]]
		k = u.parent[k]
	}
	return k
}

func (u *unionFind) union(a, b key) {
	ra, rb := u.find(a), u.find(b)
	if ra != rb {
		u.parent[rb] = ra
	}
}
