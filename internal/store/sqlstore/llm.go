package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/annals-project/annals/internal/store"
)

// Cache is the persistent LLM response cache: re-indexing the same corpus
// with the same model and prompts makes no calls.
type Cache struct{ db conn }

// Cache returns the workspace's LLM response cache.
func (s *DB) Cache() *Cache { return &Cache{db: s.db} }

// Get reads a cached response.
func (c *Cache) Get(ctx context.Context, key string) ([]byte, bool, error) {
	var v []byte
	err := c.db.QueryRowContext(ctx, "SELECT value FROM llm_cache WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read LLM cache: %w", err)
	}
	return v, true, nil
}

// Put stores a response to a call of step.
func (c *Cache) Put(ctx context.Context, step, key string, value []byte) error {
	_, err := c.db.ExecContext(ctx, `INSERT INTO llm_cache(key, value, created_at, step) VALUES(?, ?, ?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value, step = excluded.step`, key, value, now(), step)
	if err != nil {
		return fmt.Errorf("write LLM cache: %w", err)
	}
	return nil
}

// CacheStep is what the LLM cache holds for one step: Step is "" for
// entries written before the cache recorded steps.
type CacheStep struct {
	Step    string `json:"step"`
	Entries int    `json:"entries"`
	Bytes   int64  `json:"bytes"` // keys and values
}

// Stats counts the cache's entries and bytes per step, by step name.
func (c *Cache) Stats(ctx context.Context) ([]CacheStep, error) {
	rows, err := c.db.QueryContext(ctx, `SELECT step, count(*), coalesce(sum(length(key) + length(value)), 0)
		FROM llm_cache GROUP BY step ORDER BY step`)
	if err != nil {
		return nil, fmt.Errorf("read LLM cache: %w", err)
	}
	defer rows.Close()
	var out []CacheStep
	for rows.Next() {
		var s CacheStep
		if err := rows.Scan(&s.Step, &s.Entries, &s.Bytes); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Clear deletes the cache's entries, those of one step when step is not
// nil, and says how many went.
func (c *Cache) Clear(ctx context.Context, step *string) (int64, error) {
	var res sql.Result
	var err error
	if step == nil {
		res, err = c.db.ExecContext(ctx, "DELETE FROM llm_cache")
	} else {
		res, err = c.db.ExecContext(ctx, "DELETE FROM llm_cache WHERE step = ?", *step)
	}
	if err != nil {
		return 0, fmt.Errorf("clear LLM cache: %w", err)
	}
	return res.RowsAffected()
}

// RecordUsage appends the token usage of one run.
func (s *DB) RecordUsage(ctx context.Context, rows []store.UsageRow) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	at := now()
	for _, r := range rows {
		if _, err := tx.ExecContext(ctx, `INSERT INTO llm_usage(run_at, command, step, model, calls, cached, prompt_tokens,
			completion_tokens, estimated, cost) VALUES(?,?,?,?,?,?,?,?,?,?)`, at, r.Command, r.Step, r.Model, r.Calls, r.Cached,
			r.PromptTokens, r.CompletionTokens, b2i(r.Estimated), r.Cost); err != nil {
			return fmt.Errorf("record usage: %w", err)
		}
	}
	return tx.Commit()
}

// Usage sums the recorded usage per step and model over all runs.
func (s *DB) Usage(ctx context.Context) ([]store.UsageRow, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT step, model, sum(calls), sum(cached), sum(prompt_tokens), sum(completion_tokens),
		max(estimated), sum(cost) FROM llm_usage GROUP BY step, model ORDER BY step, model`)
	if err != nil {
		return nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	var out []store.UsageRow
	for rows.Next() {
		var r store.UsageRow
		if err := rows.Scan(&r.Step, &r.Model, &r.Calls, &r.Cached, &r.PromptTokens, &r.CompletionTokens, &r.Estimated, &r.Cost); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ScoreHistogram counts scored evidence by whole score 0–10, and how many
// facts were kept aside for scoring under the threshold.
func (s *DB) ScoreHistogram(ctx context.Context) (map[int]int, int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT CAST(score AS INTEGER), count(*) FROM evidence WHERE score IS NOT NULL GROUP BY 1")
	if err != nil {
		return nil, 0, fmt.Errorf("score histogram: %w", err)
	}
	defer rows.Close()
	h := map[int]int{}
	for rows.Next() {
		var k, n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, 0, err
		}
		h[k] = n
	}
	var aside int
	if err := s.db.QueryRowContext(ctx, "SELECT count(*) FROM evidence WHERE kept = 0").Scan(&aside); err != nil {
		return nil, 0, err
	}
	return h, aside, rows.Err()
}

// State reads a named blob of workspace state (schema growth …); nil when
// unset.
func (s *DB) State(ctx context.Context, name string) ([]byte, error) {
	var v []byte
	err := s.db.QueryRowContext(ctx, "SELECT value FROM state WHERE name = ?", name).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read state %s: %w", name, err)
	}
	return v, nil
}

// SetState writes a named blob of workspace state.
func (s *DB) SetState(ctx context.Context, name string, value []byte) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO state(name, value) VALUES(?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value", name, value)
	if err != nil {
		return fmt.Errorf("write state %s: %w", name, err)
	}
	return nil
}

// Patterns reads the learned extraction regexes.
func (s *DB) Patterns(ctx context.Context) ([][]byte, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT value FROM regex_patterns ORDER BY created_at, key")
	if err != nil {
		return nil, fmt.Errorf("read patterns: %w", err)
	}
	defer rows.Close()
	var out [][]byte
	for rows.Next() {
		var v []byte
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// SavePattern stores a learned extraction regex under a key.
func (s *DB) SavePattern(ctx context.Context, key string, value []byte) error {
	_, err := s.db.ExecContext(ctx, "INSERT INTO regex_patterns(key, value, created_at) VALUES(?, ?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key, value, now())
	if err != nil {
		return fmt.Errorf("save pattern: %w", err)
	}
	return nil
}

// AddMerge records that names are one entity; it returns the merge's id.
func (s *DB) AddMerge(ctx context.Context, m store.Merge) (int64, error) {
	names, _ := json.Marshal(m.Names)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, "INSERT INTO merges(type, canonical, names, reason, source, created_at) VALUES(?,?,?,?,?,?) RETURNING id",
		m.Type, m.Canonical, string(names), m.Reason, m.Source, now()).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("record merge: %w", err)
	}
	if err := setMeta(ctx, tx, MetaDirty, "1"); err != nil {
		return 0, err
	}
	return id, tx.Commit()
}

// Merges lists recorded merges, undone ones too.
func (s *DB) Merges(ctx context.Context) ([]store.Merge, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, type, canonical, names, reason, source, created_at, COALESCE(undone_at, '') FROM merges ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("list merges: %w", err)
	}
	defer rows.Close()
	var out []store.Merge
	for rows.Next() {
		var m store.Merge
		var names string
		if err := rows.Scan(&m.ID, &m.Type, &m.Canonical, &names, &m.Reason, &m.Source, &m.CreatedAt, &m.UndoneAt); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(names), &m.Names); err != nil {
			return nil, fmt.Errorf("merge %d: %w", m.ID, err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// UndoMerge marks a merge undone; the next alignment separates its names.
func (s *DB) UndoMerge(ctx context.Context, id int64) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE merges SET undone_at = ? WHERE id = ? AND undone_at IS NULL", now(), id)
	if err != nil {
		return fmt.Errorf("undo merge %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("merge %d (or not active): %w", id, store.ErrNotFound)
	}
	if err := setMeta(ctx, tx, MetaDirty, "1"); err != nil {
		return err
	}
	return tx.Commit()
}
