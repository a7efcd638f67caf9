package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// ImportFacts writes facts read from an export, in one transaction, with
// source (import:FILE) as their query.
//
// Each sentence must be in a document of this workspace, by key, with the
// same characters at the same offsets; one that is not is dropped, and a
// fact left with none is skipped: a fact never enters without the
// sentence that states it. An extracted fact this workspace's extractor
// also read is present already. Any other fact is kept beside the
// extracted ones, as fed-back facts are, so that indexing and alignment
// leave it in place: an extracted fact no extractor here read becomes a
// user fact, since no extractor of this workspace stands behind it.
func (s *DB) ImportFacts(ctx context.Context, facts []store.ImportedFact, source string) (*store.ImportResult, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("import facts: %w", err)
	}
	defer tx.Rollback()
	im := importer{tx: tx, docs: map[string]*importDoc{}, res: &store.ImportResult{Skipped: []store.Skipped{}, Dropped: []store.Skipped{}}}
	for i := range facts {
		if err := im.fact(ctx, &facts[i], source); err != nil {
			return nil, fmt.Errorf("import facts: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("import facts: %w", err)
	}
	return im.res, nil
}

type importer struct {
	tx   *txn
	docs map[string]*importDoc // by key; nil when the workspace lacks it
	res  *store.ImportResult
}

// importDoc is a document facts are anchored to.
type importDoc struct {
	id   int64
	cite string
	text []rune
}

func (im *importer) doc(ctx context.Context, key string) (*importDoc, error) {
	if d, ok := im.docs[key]; ok {
		return d, nil
	}
	var d importDoc
	var title, section, text string
	err := im.tx.QueryRowContext(ctx, "SELECT id, title, section, text FROM documents WHERE key = ?", key).Scan(&d.id, &title, &section, &text)
	if errors.Is(err, sql.ErrNoRows) {
		im.docs[key] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read document %s: %w", key, err)
	}
	d.cite, d.text = kg.Cite(splitSection(section), title, key), []rune(text)
	im.docs[key] = &d
	return &d, nil
}

// anchor finds an exported sentence in this workspace: its document and
// chunk, and the citation as this workspace writes it. The reason is
// empty when it was found.
func (im *importer) anchor(ctx context.Context, ev *kg.Evidence) (string, error) {
	d, err := im.doc(ctx, ev.DocKey)
	if err != nil || d == nil {
		return "no document " + ev.DocKey + " in this workspace", err
	}
	if ev.Start < 0 || ev.End > len(d.text) || ev.Start > ev.End || string(d.text[ev.Start:ev.End]) != ev.Sentence {
		return fmt.Sprintf("%s@%d-%d does not read as quoted: the document changed", ev.DocKey, ev.Start, ev.End), nil
	}
	ev.DocID, ev.Cite = d.id, d.cite
	err = im.tx.QueryRowContext(ctx, "SELECT id FROM chunks WHERE doc_id = ? AND start <= ? AND end >= ? ORDER BY seq LIMIT 1",
		d.id, ev.Start, ev.End).Scan(&ev.ChunkID)
	if errors.Is(err, sql.ErrNoRows) {
		ev.ChunkID, err = 0, nil
	}
	return "", err
}

func (im *importer) fact(ctx context.Context, f *store.ImportedFact, source string) error {
	name := f.Head + " " + f.Type + " " + f.Tail
	var evs []kg.Evidence
	var reasons []string
	for _, ev := range f.Evidence {
		reason, err := im.anchor(ctx, &ev)
		if err != nil {
			return err
		}
		if reason != "" {
			reasons = append(reasons, reason)
			continue
		}
		evs = append(evs, ev)
	}
	if len(evs) == 0 {
		im.res.Skipped = append(im.res.Skipped, store.Skipped{Fact: name, Reason: reasons[0]})
		return nil
	}
	for _, r := range reasons {
		im.res.Dropped = append(im.res.Dropped, store.Skipped{Fact: name, Reason: r})
	}
	status := f.Status
	if status == kg.StatusExtracted {
		var n int
		err := im.tx.QueryRowContext(ctx, `SELECT count(*) FROM relations r
			JOIN entities h ON h.id = r.head_id JOIN entities t ON t.id = r.tail_id
			WHERE h.name = ? AND h.type = ? AND r.type = ? AND t.name = ? AND t.type = ? AND r.status = 'extracted'`,
			f.Head, f.HeadType, f.Type, f.Tail, f.TailType).Scan(&n)
		if err != nil {
			return fmt.Errorf("look up %s: %w", name, err)
		}
		if n > 0 {
			im.res.Present++
			return nil
		}
		status = kg.StatusUser
	}
	head, err := im.entity(ctx, f.Head, f.HeadType)
	if err != nil {
		return err
	}
	tail, err := im.entity(ctx, f.Tail, f.TailType)
	if err != nil {
		return err
	}
	if head == tail {
		if kg.IsAliasRelation(f.Type) {
			im.res.Present++ // an alias of one entity here
			return nil
		}
		im.res.Skipped = append(im.res.Skipped, store.Skipped{Fact: name, Reason: "both ends are one entity here"})
		return nil
	}
	fb, err := keepFact(ctx, im.tx, store.Feedback{HeadID: head, Type: f.Type, TailID: tail, Status: status,
		Score: f.Score, Query: source, Evidence: evs}, f.Extractor)
	if err != nil {
		return err
	}
	if fb.New {
		im.res.Added++
	} else {
		im.res.Present++
	}
	return nil
}

// entity finds the entity a name of that type refers to here: by its
// main name, else by an alias or an extracted name (a name another
// workspace kept apart may be an alias here), most mentioned first; else
// it makes one.
func (im *importer) entity(ctx context.Context, name, typ string) (int64, error) {
	var id int64
	err := im.tx.QueryRowContext(ctx, `SELECT e.id FROM entities e WHERE e.type = ?2 AND e.id IN (
			SELECT id FROM entities WHERE name = ?1
			UNION SELECT entity_id FROM aliases WHERE alias = ?1
			UNION SELECT entity_id FROM names WHERE name = ?1 AND entity_id IS NOT NULL)
		ORDER BY (e.name = ?1) DESC, e.mentions DESC, e.id LIMIT 1`, name, typ).Scan(&id)
	if err == nil || !errors.Is(err, sql.ErrNoRows) {
		return id, err
	}
	if err := im.tx.QueryRowContext(ctx, "INSERT INTO entities(name, type) VALUES(?, ?) RETURNING id", name, typ).Scan(&id); err != nil {
		return 0, fmt.Errorf("add entity %s: %w", name, err)
	}
	im.res.EntitiesAdded++
	return id, nil
}
