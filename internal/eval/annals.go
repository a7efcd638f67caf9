package eval

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/annals-project/annals/internal/docstats"
	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/ner"
	"github.com/annals-project/annals/internal/schema"
)

// Annals is the project's own annotations of 汉书, 后汉书 and 三国志
// (internal/ner/annotations): split "test" is the tenth held out of
// training (ner.HeldOut), "train" the rest. Unlike the public sets, its
// sentences are read in their chapters, as indexing reads them.
const Annals Dataset = "annals"

// annalsMapping is the identity: the annotations use the schema's own
// types and relations.
var annalsMapping = func() Mapping {
	// Events and their relations are read by rules and left unannotated:
	// they count only in the "all" figures.
	m := Mapping{Dataset: Annals, Match: MatchOffsets, UnmappedEntityTypes: []string{"事件"}}
	for _, t := range ner.Types {
		m.Entities = append(m.Entities, EntityMapping{Label: t, Ours: []string{t}})
	}
	sch := schema.MustLoad(schema.ZhHistory)
	for _, r := range ner.Relations() {
		row := RelationMapping{Label: r, Alts: alts(r), Note: "as annotated (docs/annotation.md)"}
		if rt := sch.Relation(r); rt != nil && rt.Symmetric {
			row.Either = true
		}
		// 下级 and 上级 state one relation from either end.
		switch r {
		case "下级":
			row.Alts = append(row.Alts, Alt{Relation: "上级", Swap: true})
			row.Note = "the superior is the head; a 上级 the other way round states it too"
		case "上级":
			row.Alts = append(row.Alts, Alt{Relation: "下级", Swap: true})
			row.Note = "not annotated (docs/annotation.md writes 下级); a 下级 the other way round states it"
		}
		m.Relations = append(m.Relations, row)
	}
	m.Notes = []string{"each sentence's chapter is extracted whole, as one document; the names and relations that fall inside the sentence are scored"}
	return m
}()

// annalsSentence is an annotated sentence with where it sits in its chapter.
type annalsSentence struct {
	ner.Sentence
	chapter string // BOOK/…/CHAPTER
	nth     int    // its piece in ner.Split of the chapter
}

// loadAnnals reads the annotated sentences of a split from dir/batch-*.txt.
// withRelations keeps only those of files whose relations are annotated.
func loadAnnals(dir, split string, withRelations bool) ([]annalsSentence, error) {
	if split != "test" && split != "train" {
		return nil, fmt.Errorf("annals: unknown split %q (known: train, test; the held-out tenth is test)", split)
	}
	files, err := filepath.Glob(filepath.Join(dir, "batch-*.txt"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no batch-*.txt annotations in %s", ErrDataAbsent, dir)
	}
	sort.Strings(files)
	var out []annalsSentence
	for _, f := range files {
		ss, err := ner.ReadAnnotationFile(f)
		if err != nil {
			return nil, err
		}
		for _, s := range ss {
			if ner.HeldOut(s.ID) != (split == "test") || withRelations && !s.HasRelations {
				continue
			}
			ch, nth, ok := strings.Cut(s.ID, ":")
			k, err := strconv.Atoi(nth)
			if !ok || err != nil || k < 0 {
				return nil, fmt.Errorf("%s: sentence ID %q is not CHAPTER:N", f, s.ID)
			}
			out = append(out, annalsSentence{Sentence: s, chapter: ch, nth: k})
		}
	}
	return out, nil
}

// annalsExample turns an annotated sentence into gold items.
func annalsExample(s ner.Sentence) Example {
	rs := s.Runes()
	ent := func(sp ner.Span) GoldEntity {
		return GoldEntity{Text: string(rs[sp.Start:sp.End]), Type: sp.Type, Start: sp.Start, End: sp.End}
	}
	ex := Example{ID: s.ID, Text: s.Text}
	for _, sp := range s.Names {
		ex.Entities = append(ex.Entities, ent(sp))
	}
	for _, r := range s.Relations {
		ex.Triples = append(ex.Triples, GoldTriple{Head: ent(s.Names[r.Head]), Relation: r.Type, Tail: ent(s.Names[r.Tail])})
	}
	return ex
}

// extractInChapters extracts each sentence's chapter whole, as one
// document, and returns for each sentence what falls inside it, with
// offsets into the sentence. corpus holds BOOK/…/CHAPTER/text.txt.
func extractInChapters(ctx context.Context, ex extract.Extractor, sch *schema.Schema, corpus string, ss []annalsSentence, prog *progress) ([]extract.Result, error) {
	byChapter := map[string][]int{}
	var order []string
	for i, s := range ss {
		if _, ok := byChapter[s.chapter]; !ok {
			order = append(order, s.chapter)
		}
		byChapter[s.chapter] = append(byChapter[s.chapter], i)
	}
	out := make([]extract.Result, len(ss))
	for _, ch := range order {
		b, err := os.ReadFile(filepath.Join(corpus, filepath.FromSlash(ch), "text.txt"))
		if err != nil {
			return nil, fmt.Errorf("%w: the chapter of annotated sentences: %v", ErrDataAbsent, err)
		}
		doc := string(b)
		pieces := ner.Split(doc)
		dc := extract.NewDocContext(ch, path.Base(ch), nil)
		dc.Use = docstats.OfDocument([]rune(doc))
		in := extract.Input{Text: doc, Lang: "lzh", Schema: sch, Doc: dc}
		r, err := ex.Extract(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("extract %s: %w", ch, err)
		}
		for _, i := range byChapter[ch] {
			s := ss[i]
			if s.nth >= len(pieces) || pieces[s.nth].Text != s.Text {
				return nil, fmt.Errorf("annotated sentence %s is not sentence %d of %s: is it the First Four Histories?", s.ID, s.nth, ch)
			}
			out[i] = within(r, pieces[s.nth].Start, pieces[s.nth].End)
			prog.step()
		}
	}
	return out, nil
}

// within keeps the entities and triples of r inside [start, end), shifted
// to start there. A triple counts when both its ends are inside and are
// two mentions: one whose ends are one mention (a title recorded as an
// alias of the person it stands for) states nothing between two names.
func within(r extract.Result, start, end int) extract.Result {
	in := func(e extract.Entity) bool { return e.Start >= start && e.End <= end && e.Start < e.End }
	shift := func(e extract.Entity) extract.Entity {
		e.Start -= start
		e.End -= start
		return e
	}
	var out extract.Result
	for _, e := range r.Entities {
		if in(e) {
			out.Entities = append(out.Entities, shift(e))
		}
	}
	for _, t := range r.Triples {
		if in(t.Head) && in(t.Tail) && t.Head.Span != t.Tail.Span {
			t.Head, t.Tail = shift(t.Head), shift(t.Tail)
			out.Triples = append(out.Triples, t)
		}
	}
	return out
}

// runAnnals scores ex on the project's annotations: names on every
// sentence of the split, triples on those whose relations are annotated.
func runAnnals(ctx context.Context, ex extract.Extractor, sch *schema.Schema, split string, opts Options, rep *Report) error {
	dir := opts.Annotations
	if dir == "" {
		dir = filepath.Join("internal", "ner", "annotations")
	}
	corpus := opts.DataDir
	if corpus == "" {
		d, err := DataDir()
		if err != nil {
			return err
		}
		corpus = d
	}
	corpus = filepath.Join(corpus, "first-four-histories")
	names, err := loadAnnals(dir, split, false)
	if err != nil {
		return err
	}
	if opts.Limit > 0 {
		names = names[:min(opts.Limit, len(names))]
	}
	res, err := extractInChapters(ctx, ex, sch, corpus, names, newProgress(opts.Progress, len(names)))
	if err != nil {
		return err
	}
	src := fmt.Sprintf("%s/batch-*.txt, %s", dir, split)
	var all, rels []Example
	var relRes []extract.Result
	for i, s := range names {
		e := annalsExample(s.Sentence)
		all = append(all, e)
		if s.HasRelations {
			rels, relRes = append(rels, e), append(relRes, res[i])
		}
	}
	if rep.Entities, err = ScoreEntities(rep.Mapping, src, all, res); err != nil {
		return err
	}
	rep.Triples, err = ScoreTriples(rep.Mapping, sch, src+", relations annotated", rels, relRes)
	return err
}
