package annals

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/pipeline"
	"github.com/annals-project/annals/internal/resolve"
	"github.com/annals-project/annals/internal/store"
	"github.com/annals-project/annals/internal/text"
)

// EntityOptions tunes Entity.
type EntityOptions struct {
	Relations int // most relations to show; 0: 50
	Mentions  int // most mentions to show; 0: 10
}

// EntityView is an entity with its facts and where it is named.
type EntityView struct {
	Entity
	// Attributes are the names of the entity by kind (字, 号 …).
	Attributes map[string][]string `json:"attributes,omitempty"`
	// Stated are the attributes the texts state (字 孔明, 生卒 …), each
	// with the first sentence that does (its citation, with the offsets of
	// the entity's name and of the value) and how many do.
	Stated      []Attribute `json:"stated_attributes,omitempty"`
	Relations   []Relation  `json:"relations"`
	Occurrences []Mention   `json:"occurrences"` // where it is named, first few
	// Others are further entities the name could mean (same name, another
	// type, or a shared alias).
	Others []Entity `json:"others,omitempty"`
	// Born and Died are the years of its dated birth and death facts.
	Born *int `json:"born,omitempty"`
	Died *int `json:"died,omitempty"`
	// Description is a sentence or two merged from the facts listed (see
	// describe), or written by a model from them (annals describe); empty
	// when they say too little. DescribedBy says which: "facts" or "llm".
	Description string `json:"description,omitempty"`
	DescribedBy string `json:"described_by,omitempty"`
	// own are a person's own chapters, which the description trusts over
	// a passing mention.
	own map[int64]bool
}

// findEntities looks up a name (main name, alias, 字/号, in traditional or
// simplified characters): the entities it names, best match first.
func (w *Workspace) findEntities(ctx context.Context, name string) ([]kg.Entity, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, fmt.Errorf("no entity named")
	}
	found, err := w.db.FindEntities(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(found) == 0 {
		if simp, _ := text.ToSimplified(name); simp != name {
			if found, err = w.db.FindEntities(ctx, simp); err != nil {
				return nil, err
			}
		}
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("entity %q: %w", name, ErrNotFound)
	}
	return preferBetterAttested(found), nil
}

// preferBetterAttested puts first, before the entity that bears the name
// itself, an entity the name is an alias of when the text speaks of that
// one ten times as often and it is of the same type, or the named one is
// never mentioned: 孔明 opens 诸葛亮 (407 mentions), not a split-off 孔明 of
// 6; 汉高祖, known only as a name of 刘邦, opens 刘邦. found comes exact
// name first, then by mentions.
func preferBetterAttested(found []kg.Entity) []kg.Entity {
	if len(found) < 2 {
		return found
	}
	named := found[0]
	for i, e := range found[1:] {
		if e.Name == named.Name {
			continue
		}
		if named.Mentions == 0 && e.Mentions > 0 || e.Type == named.Type && e.Mentions >= 10*max(named.Mentions, 1) {
			out := append([]kg.Entity{e}, found[:i+1]...)
			return append(out, found[i+2:]...)
		}
		break // the rest are less attested still
	}
	return found
}

// Entity looks up a name (main name, alias, 字/号, in traditional or
// simplified characters) and returns the best match with its facts.
func (w *Workspace) Entity(ctx context.Context, name string, opts EntityOptions) (*EntityView, error) {
	found, err := w.findEntities(ctx, name)
	if err != nil {
		return nil, err
	}
	v := &EntityView{Entity: found[0], Others: found[1:], Attributes: map[string][]string{}}
	for _, a := range v.Aliases {
		kind := a.Kind
		if !contains(v.Attributes[kind], a.Name) {
			v.Attributes[kind] = append(v.Attributes[kind], a.Name)
		}
	}
	dropStatedElsewhere(v.Attributes)
	// The description reads more facts than a short view lists, so that
	// it says the same however many are asked for.
	shown := orDefault(opts.Relations, 50)
	if v.Relations, err = w.relationsToDescribe(ctx, v.ID, shown); err != nil {
		return nil, err
	}
	if v.Stated, err = w.db.Attributes(ctx, v.ID, 0); err != nil {
		return nil, err
	}
	if v.Occurrences, err = w.db.Mentions(ctx, v.ID, orDefault(opts.Mentions, 10)); err != nil {
		return nil, err
	}
	if v.Type == "人物" {
		if v.own, err = w.db.OwnDocuments(ctx, v.ID); err != nil {
			return nil, err
		}
	}
	if v.Born, v.Died, err = w.lifeSpan(ctx, v.ID, v.own); err != nil {
		return nil, err
	}
	// A description a model wrote (annals describe) stands in for the one
	// written here from the facts.
	v.Description, v.DescribedBy = describe(v), "facts"
	if found[0].Description != "" {
		v.Description, v.DescribedBy = found[0].Description, "llm"
	}
	if v.Description == "" {
		v.DescribedBy = ""
	}
	v.Relations = v.Relations[:min(shown, len(v.Relations))]
	return v, nil
}

// relationsToDescribe reads an entity's best supported relations, as many
// as the description reads, with the sentences of the first shown and of
// those whose sentences the description weighs (datedTails): the rest are
// counted by type and other end only, and reading all their sentences
// took most of a page's time.
func (w *Workspace) relationsToDescribe(ctx context.Context, id int64, shown int) ([]Relation, error) {
	rels, err := w.db.RelationList(ctx, id, max(shown, describeFacts))
	if err != nil {
		return nil, err
	}
	var need []Relation
	var at []int
	for i, r := range rels {
		if i < shown || r.HeadID == id && datedTails[r.Type] {
			need, at = append(need, r), append(at, i)
		}
	}
	if err := w.db.AttachEvidence(ctx, need, 3); err != nil {
		return nil, err
	}
	for k, i := range at {
		rels[i] = need[k]
	}
	return rels, nil
}

// dropStatedElsewhere keeps a name out of 名 when the texts state it as
// another kind: 项羽 is called 羽 as a short form, which reads as a given
// name, but his chapter says 字羽.
func dropStatedElsewhere(attrs map[string][]string) {
	given := attrs["名"]
	if len(given) == 0 {
		return
	}
	kept := given[:0]
	for _, n := range given {
		stated := false
		for kind, names := range attrs {
			if kind != "名" && kind != "variant" && contains(names, n) {
				stated = true
			}
		}
		if !stated {
			kept = append(kept, n)
		}
	}
	if len(kept) == 0 {
		delete(attrs, "名")
		return
	}
	attrs["名"] = kept
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func orDefault(n, d int) int {
	if n <= 0 {
		return d
	}
	return n
}

// AliasReport says what an alias import did.
type AliasReport struct {
	File     string   `json:"file"`
	Read     int      `json:"read"`  // aliases read
	Added    int      `json:"added"` // new ones
	Problems []string `json:"problems,omitempty"`
}

// ImportAliases reads an alias dictionary (主名:别名1,别名2, one entity a
// line) and re-aligns the graph with it.
func (w *Workspace) ImportAliases(ctx context.Context, path string, waiting func(string)) (*AliasReport, error) {
	return w.ImportAliasesWith(ctx, path, AliasOptions{Waiting: waiting})
}

// AliasOptions tunes ImportAliasesWith.
type AliasOptions struct {
	// Waiting is told, in a sentence, when another process holds the
	// workspace.
	Waiting func(string)
	// Progress, when set, is told as each step begins: "read", "check"
	// (with KnownOnly), "store", then "align".
	Progress func(Progress)
	// KnownOnly refuses a dictionary with a main name that names no entity
	// of the workspace (by its name, an alias or a name read in the
	// texts): the error is an *UnknownNamesError and nothing is imported.
	KnownOnly bool
}

// UnknownName is a main name of a dictionary that names no entity.
type UnknownName struct {
	Name string `json:"name"`
	Line int    `json:"line"`
}

// UnknownNamesError refuses a dictionary whose main names include some
// that name no entity of the workspace.
type UnknownNamesError struct {
	File  string
	Names []UnknownName
}

func (e *UnknownNamesError) Error() string {
	const shown = 10
	var parts []string
	for i, n := range e.Names {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(e.Names)-shown))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (line %d)", n.Name, n.Line))
	}
	return fmt.Sprintf("%s: %d main name(s) match no entity of the workspace: %s; nothing was imported",
		e.File, len(e.Names), strings.Join(parts, ", "))
}

// ImportAliasesWith is ImportAliases with options.
func (w *Workspace) ImportAliasesWith(ctx context.Context, path string, opts AliasOptions) (*AliasReport, error) {
	tell := func(step string) {
		if opts.Progress != nil {
			opts.Progress(Progress{Step: step})
		}
	}
	tell("read")
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import aliases: %w", err)
	}
	defer f.Close()
	source := filepath.Base(path)
	facts, problems := resolve.ParseDictionary(f, source)
	rep := &AliasReport{File: path, Read: len(facts)}
	for _, p := range problems {
		rep.Problems = append(rep.Problems, p.Error())
	}
	l, err := w.lock(ctx, "annals aliases import", opts.Waiting)
	if err != nil {
		return nil, err
	}
	defer l.Unlock()
	if opts.KnownOnly {
		tell("check")
		if err := w.knownMains(ctx, path, facts); err != nil {
			return nil, err
		}
	}
	tell("store")
	if rep.Added, err = w.db.AddDictionaryAliases(ctx, source, facts); err != nil {
		return nil, err
	}
	tell(pipeline.StepAlign)
	if _, err := resolve.Align(ctx, w.db, false); err != nil {
		return nil, err
	}
	return rep, nil
}

// knownMains is an *UnknownNamesError when some main name of facts names
// no entity, with the lines that give it.
func (w *Workspace) knownMains(ctx context.Context, path string, facts []store.AliasFact) error {
	var mains []string
	line := map[string]int{}
	for _, f := range facts {
		if _, ok := line[f.Main]; ok {
			continue
		}
		n := 0
		if i := strings.LastIndexByte(f.Source, ':'); i >= 0 {
			n, _ = strconv.Atoi(f.Source[i+1:])
		}
		line[f.Main] = n
		mains = append(mains, f.Main)
	}
	matches, err := w.db.MatchNames(ctx, mains)
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, m := range matches {
		known[m.Text] = true
	}
	var unknown []UnknownName
	for _, m := range mains {
		if !known[m] {
			unknown = append(unknown, UnknownName{Name: m, Line: line[m]})
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return &UnknownNamesError{File: path, Names: unknown}
}
