package llmalign

import (
	"sort"
	"strings"
	"unicode"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/resolve"
)

// Why a pair of entities became candidates, strongest first. The score
// orders pairs when the per-entity limit must choose.
const (
	whyAlias        = "alias"             // one's alias is the other's name
	whySharedAlias  = "shared alias"      // both have the same alias
	whyAliasInName  = "alias in name"     // 玄德 (alias of 刘备) inside 刘玄德
	whyNameInAlias  = "name in alias"     // 武帝 inside 魏武帝 (alias of 曹操)
	whyContained    = "contained"         // 孔明 inside 诸葛孔明
	whySharedChar   = "shared character"  // 张翼德 / 张益德
	whySharedWords  = "shared words"      // Indochinese Communist Party / Communist Party of Indochina
	whySimilar      = "similar embedding" // the Similar hook
	whyCourtesyForm = "surname + 字 shape" // 曹操 / 曹孟德
)

var scores = map[string]float64{
	whyAlias: 4, whySharedAlias: 3.5, whyAliasInName: 3.2, whyNameInAlias: 3.1,
	whyContained: 3, whySharedChar: 2.5, whySharedWords: 2, whyCourtesyForm: 1,
}

// Bounds that keep blocking near linear on large workspaces: an index key
// shared by more entities than this says nothing about any two of them.
const (
	maxAliasOwners = 8
	maxPostings    = 64
	maxUnits       = 24 // longest sub-name tried for containment
)

// node is one entity considered for alignment.
type node struct {
	ent     kg.Entity
	key     string   // normalised name
	units   []string // characters (CJK) or lower-case words (Latin script)
	latin   bool
	aliases []string // unit keys of its other names, its own excluded
	surname string   // persons written in Han characters only
	given   string
}

// unitKey joins units so that containment of keys is containment of unit
// sequences: word boundaries for Latin script, characters for CJK.
func unitKey(units []string, latin bool) string {
	if latin {
		return strings.Join(units, " ")
	}
	return strings.Join(units, "")
}

// isLatin reports whether a name is written in Latin script (English,
// Vietnamese): compared word by word rather than character by character.
func isLatin(s string) bool {
	for _, r := range s {
		if unicode.In(r, unicode.Latin) {
			return true
		}
	}
	return false
}

// nameUnits splits a name into the units blocking compares.
func nameUnits(name string) (units []string, latin bool) {
	norm := resolve.Normalize(name)
	if latin = isLatin(norm); latin {
		for _, w := range strings.FieldsFunc(strings.ToLower(name), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			units = append(units, w)
		}
		return units, true
	}
	for _, r := range norm {
		units = append(units, string(r))
	}
	return units, false
}

func newNode(e kg.Entity, person bool) node {
	n := node{ent: e, key: resolve.Normalize(e.Name)}
	n.units, n.latin = nameUnits(e.Name)
	own := unitKey(n.units, n.latin)
	seen := map[string]bool{own: true}
	for _, a := range e.Aliases {
		u, latin := nameUnits(a.Name)
		k := unitKey(u, latin)
		if k != "" && !seen[k] {
			seen[k] = true
			n.aliases = append(n.aliases, k)
		}
	}
	sort.Strings(n.aliases)
	if person && !n.latin {
		n.surname, n.given = splitName(n.key)
	}
	return n
}

// compoundSurnames are the two-character surnames common in the histories;
// any other name is taken to start with a one-character surname.
var compoundSurnames = map[string]bool{}

func init() {
	for _, s := range strings.Fields(`诸葛 司马 夏侯 欧阳 上官 皇甫 公孙 令狐 司徒 司空 东方 尉迟 长孙
		慕容 宇文 独孤 轩辕 端木 钟离 太史 申屠 公羊 澹台 闻人 呼延 赫连 万俟 南宫 西门 百里 东郭
		淳于 单于 拓跋 完颜 耶律 贺兰 鲜于 闾丘 公冶 谷梁 左丘 第五 仲孙 叔孙 季孙 段干 梁丘 乐正
		羊舌 公西 濮阳 夹谷 宗政 颛孙 壤驷 巫马 漆雕 乌孙 是云 仆固 阿史那 独孤 贺拔 宇文 纥干 步六孤`) {
		compoundSurnames[s] = true
	}
}

// splitName cuts a Chinese personal name into surname and given name. Only
// names of two to five characters are people's names of that shape.
func splitName(key string) (surname, given string) {
	rs := []rune(key)
	if len(rs) < 2 || len(rs) > 5 {
		return "", ""
	}
	for n := 3; n >= 2; n-- {
		if len(rs) > n && compoundSurnames[string(rs[:n])] {
			return string(rs[:n]), string(rs[n:])
		}
	}
	return string(rs[:1]), string(rs[1:])
}

// titleEnd marks a given-name slot that holds a title, not a 字: 诸葛武侯 is
// 诸葛亮 by his title, which only the text (an alias) can tell; 王太子 is no
// one's name.
var titleEnd = map[rune]bool{'公': true, '侯': true, '王': true, '帝': true, '君': true, '主': true, '后': true, '氏': true, '妃': true, '子': true}

// candidate is a pair of node indexes (a < b) with why they might be one.
type candidate struct {
	a, b  int
	score float64
	why   string
}

// collector keeps the best reason per pair.
type collector map[[2]int]candidate

func (c collector) add(a, b int, why string, score float64) {
	if a == b {
		return
	}
	if a > b {
		a, b = b, a
	}
	k := [2]int{a, b}
	if old, ok := c[k]; ok && old.score >= score {
		return
	}
	c[k] = candidate{a: a, b: b, score: score, why: why}
}

// subKeys lists the keys of the proper contiguous parts of units that are
// long enough to identify something: two characters, or a word of three
// letters.
func subKeys(units []string, latin bool) []string {
	var out []string
	for i := range units {
		for j := i + 1; j <= len(units) && j-i <= maxUnits; j++ {
			if i == 0 && j == len(units) {
				continue
			}
			part := units[i:j]
			if latin {
				if j-i == 1 && len([]rune(part[0])) < 3 {
					continue
				}
			} else if j-i < 2 {
				continue
			}
			out = append(out, unitKey(part, latin))
		}
	}
	return out
}

var stopWords = map[string]bool{"the": true, "of": true, "and": true, "for": true, "von": true, "van": true, "de": true, "du": true, "la": true, "le": true}

// candidates finds the pairs of nodes that might be one entity.
func candidates(nodes []node, person bool, similar func(a, b int64) float64, threshold float64) collector {
	c := collector{}
	byName := map[string][]int{}
	byAlias := map[string][]int{}
	for i, n := range nodes {
		byName[unitKey(n.units, n.latin)] = append(byName[unitKey(n.units, n.latin)], i)
		for _, a := range n.aliases {
			byAlias[a] = append(byAlias[a], i)
		}
	}

	// (b) Known aliases.
	for i, n := range nodes {
		if distinctive(unitKey(n.units, n.latin)) {
			for _, j := range byAlias[unitKey(n.units, n.latin)] {
				c.add(i, j, whyAlias, scores[whyAlias])
			}
		}
		for _, a := range n.aliases {
			u, latin := splitKey(a)
			for _, k := range subKeys(u, latin) {
				for _, j := range byName[k] {
					c.add(i, j, whyNameInAlias, scores[whyNameInAlias])
				}
			}
		}
		for _, k := range subKeys(n.units, n.latin) {
			if len(byAlias[k]) > maxAliasOwners {
				continue
			}
			for _, j := range byAlias[k] {
				c.add(i, j, whyAliasInName, scores[whyAliasInName])
			}
		}
	}
	for a, owners := range byAlias {
		if len(owners) < 2 || len(owners) > maxAliasOwners || !distinctive(a) {
			continue
		}
		for x := range owners {
			for y := x + 1; y < len(owners); y++ {
				c.add(owners[x], owners[y], whySharedAlias, scores[whySharedAlias])
			}
		}
	}

	// (a) Shared characters: containment, then per script.
	for i, n := range nodes {
		for _, k := range subKeys(n.units, n.latin) {
			for _, j := range byName[k] {
				if person && !n.latin && k == n.surname {
					continue // 诸葛 is a surname, not a name inside 诸葛亮
				}
				c.add(i, j, whyContained, scores[whyContained])
			}
		}
	}
	switch {
	case person:
		sharedGiven(nodes, c)
	default:
		sharedBigrams(nodes, c)
	}
	sharedWords(nodes, c)

	// (c) Embedding similarity, when the caller has vectors.
	if similar != nil {
		for i := range nodes {
			for j := i + 1; j < len(nodes); j++ {
				if s := similar(nodes[i].ent.ID, nodes[j].ent.ID); s >= threshold {
					c.add(i, j, whySimilar, 2+min(s, 1))
				}
			}
		}
	}
	return c
}

// distinctive reports whether a name can identify an entity across the
// corpus: not one character (亮, 权 name a person only inside the document
// that says whose), nor a Latin word of under three letters.
func distinctive(key string) bool {
	u, latin := splitKey(key)
	if latin {
		return len(u) > 1 || len([]rune(key)) >= 3
	}
	return len(u) >= 2
}

// splitKey undoes unitKey.
func splitKey(k string) ([]string, bool) {
	if isLatin(k) {
		return strings.Split(k, " "), true
	}
	var out []string
	for _, r := range k {
		out = append(out, string(r))
	}
	return out, false
}

// sharedGiven pairs people of one surname whose given names share a
// character (variant writings: 张翼德 / 张益德), or whose given names have
// the shapes of a 名 and a 字 (曹操 / 曹孟德).
func sharedGiven(nodes []node, c collector) {
	bySurname := map[string][]int{}
	for i, n := range nodes {
		if n.surname != "" && n.given != "" {
			bySurname[n.surname] = append(bySurname[n.surname], i)
		}
	}
	for _, ids := range bySurname {
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				a, b := nodes[ids[x]], nodes[ids[y]]
				ga, gb := []rune(a.given), []rune(b.given)
				switch {
				case shareRune(ga, gb):
					c.add(ids[x], ids[y], whySharedChar, scores[whySharedChar])
				case courtesyShape(ga, gb) || courtesyShape(gb, ga):
					c.add(ids[x], ids[y], whyCourtesyForm, scores[whyCourtesyForm])
				}
			}
		}
	}
}

func shareRune(a, b []rune) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// courtesyShape: a one-character 名 against a two-character 字 that is not
// a title.
func courtesyShape(ming, zi []rune) bool {
	return len(ming) == 1 && len(zi) == 2 && !titleEnd[zi[1]]
}

// sharedBigrams pairs places and groups of three or more characters that
// share two consecutive characters (益州郡 / 益州刺史部).
func sharedBigrams(nodes []node, c collector) {
	post := map[string][]int{}
	for i, n := range nodes {
		if n.latin || len(n.units) < 3 {
			continue
		}
		seen := map[string]bool{}
		for k := 0; k+1 < len(n.units); k++ {
			bg := n.units[k] + n.units[k+1]
			if !seen[bg] {
				seen[bg] = true
				post[bg] = append(post[bg], i)
			}
		}
	}
	for _, ids := range post {
		if len(ids) > maxPostings {
			continue
		}
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				c.add(ids[x], ids[y], whySharedChar, scores[whySharedChar]-1)
			}
		}
	}
}

// sharedWords pairs Latin-script names with two significant words in
// common.
func sharedWords(nodes []node, c collector) {
	post := map[string][]int{}
	for i, n := range nodes {
		if !n.latin {
			continue
		}
		seen := map[string]bool{}
		for _, w := range n.units {
			if len([]rune(w)) >= 3 && !stopWords[w] && !seen[w] {
				seen[w] = true
				post[w] = append(post[w], i)
			}
		}
	}
	common := map[[2]int]int{}
	for _, ids := range post {
		if len(ids) > maxPostings {
			continue
		}
		for x := range ids {
			for y := x + 1; y < len(ids); y++ {
				common[[2]int{ids[x], ids[y]}]++
			}
		}
	}
	for k, n := range common {
		if n >= 2 {
			c.add(k[0], k[1], whySharedWords, scores[whySharedWords])
		}
	}
}

// group is a set of entities that might be one, sent to the LLM together.
type group struct {
	typ     string
	members []*node
	body    string // rendered evidence, without the group's number
	hash    string
}

// groupCandidates keeps at most perEntity candidates per entity, strongest
// first, and joins them into groups of at most maxSize entities. A pair
// that would make a group too large is asked about on its own. Both the
// pairs kept and the groups come out in a deterministic order.
func groupCandidates(nodes []node, c collector, perEntity, maxSize int) ([]candidate, [][]int) {
	pairs := make([]candidate, 0, len(c))
	for _, p := range c {
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool {
		x, y := pairs[i], pairs[j]
		if x.score != y.score {
			return x.score > y.score
		}
		mx := min(nodes[x.a].ent.Mentions, nodes[x.b].ent.Mentions)
		my := min(nodes[y.a].ent.Mentions, nodes[y.b].ent.Mentions)
		if mx != my {
			return mx > my
		}
		if x.a != y.a {
			return x.a < y.a
		}
		return x.b < y.b
	})
	degree := make([]int, len(nodes))
	parent := make([]int, len(nodes))
	size := make([]int, len(nodes))
	for i := range parent {
		parent[i], size[i] = i, 1
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	var kept []candidate
	var extra [][]int
	for _, p := range pairs {
		if degree[p.a] >= perEntity || degree[p.b] >= perEntity {
			continue
		}
		ra, rb := find(p.a), find(p.b)
		if ra == rb {
			continue // already asked together
		}
		degree[p.a]++
		degree[p.b]++
		kept = append(kept, p)
		if size[ra]+size[rb] <= maxSize {
			if size[ra] < size[rb] {
				ra, rb = rb, ra
			}
			parent[rb] = ra
			size[ra] += size[rb]
			continue
		}
		extra = append(extra, []int{p.a, p.b})
	}
	comps := map[int][]int{}
	for i := range nodes {
		if size[find(i)] > 1 {
			comps[find(i)] = append(comps[find(i)], i)
		}
	}
	groups := extra
	for _, m := range comps {
		groups = append(groups, m)
	}
	// nodes come most mentioned first, so index order is mention order.
	for _, g := range groups {
		sort.Ints(g)
	}
	sort.Slice(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		for k := 0; k < len(a) && k < len(b); k++ {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return len(a) < len(b)
	})
	return kept, groups
}
