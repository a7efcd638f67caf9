package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/store"
)

// Entity types that are members of communities: who and what acts and
// where. Offices, titles, times and works are attributes of members.
var communityTypes = []string{"人物", "地点", "社会集团", "事件", "person", "place", "organisation", "event"}

// chunksPerEntity bounds the passages read for an entity's vector.
const chunksPerEntity = 64

// CommunityGraph reads the graph communities are found in: the entities
// of member types that a relation (other than an alias) joins to another,
// each with the chunks that mention it, and those relations with their
// support and the years their evidence is dated to.
func (s *DB) CommunityGraph(ctx context.Context) ([]store.GraphNode, []store.GraphEdge, error) {
	in := "'" + strings.Join(communityTypes, "','") + "'"
	rows, err := s.query(ctx, `
		SELECT r.id, r.head_id, r.tail_id, r.type, r.support,
			(SELECT group_concat(e.year) FROM evidence e WHERE e.relation_id = r.id AND e.year IS NOT NULL AND e.kept = 1)
		FROM relations r
		JOIN entities h ON h.id = r.head_id AND h.type IN (`+in+`)
		JOIN entities t ON t.id = r.tail_id AND t.type IN (`+in+`)
		WHERE r.type != '别称' AND r.type != 'alias_of' AND r.head_id != r.tail_id
		ORDER BY r.id`)
	if err != nil {
		return nil, nil, fmt.Errorf("read the graph for communities: %w", err)
	}
	var edges []store.GraphEdge
	index := map[int64]int{}
	var nodes []store.GraphNode
	for rows.Next() {
		var e store.GraphEdge
		var years sql.NullString
		if err := rows.Scan(&e.RelationID, &e.Head, &e.Tail, &e.Type, &e.Support, &years); err != nil {
			rows.Close()
			return nil, nil, err
		}
		for _, y := range strings.Split(years.String, ",") {
			var n int
			if _, err := fmt.Sscan(y, &n); err == nil {
				e.Years = append(e.Years, n)
			}
		}
		for _, id := range []int64{e.Head, e.Tail} {
			if _, ok := index[id]; !ok {
				index[id] = len(nodes)
				nodes = append(nodes, store.GraphNode{ID: id})
			}
		}
		edges = append(edges, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if len(nodes) == 0 {
		return nil, nil, nil
	}
	rows, err = s.query(ctx, `SELECT id, name, type, mentions FROM entities WHERE type IN (`+in+`)`)
	if err != nil {
		return nil, nil, fmt.Errorf("read entities for communities: %w", err)
	}
	for rows.Next() {
		var n store.GraphNode
		if err := rows.Scan(&n.ID, &n.Name, &n.Type, &n.Mentions); err != nil {
			rows.Close()
			return nil, nil, err
		}
		if k, ok := index[n.ID]; ok {
			nodes[k] = n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	rows, err = s.query(ctx, `SELECT DISTINCT n.entity_id, m.chunk_id FROM mentions m JOIN names n ON n.id = m.name_id
		WHERE n.entity_id IS NOT NULL ORDER BY n.entity_id, m.chunk_id`)
	if err != nil {
		return nil, nil, fmt.Errorf("read mentions for communities: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, chunk int64
		if err := rows.Scan(&id, &chunk); err != nil {
			return nil, nil, err
		}
		if k, ok := index[id]; ok && len(nodes[k].Chunks) < chunksPerEntity {
			nodes[k].Chunks = append(nodes[k].Chunks, chunk)
		}
	}
	return nodes, edges, rows.Err()
}

// ReplaceCommunities drops every community and writes these, with all
// their members (members[i] belongs to cs[i], most central first).
func (s *DB) ReplaceCommunities(ctx context.Context, cs []kg.Community, members [][]kg.CommunityMember) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM community_members; DELETE FROM communities"); err != nil {
		return fmt.Errorf("drop communities: %w", err)
	}
	ins, err := tx.PrepareContext(ctx, "INSERT INTO communities(id, name, method, size, report) VALUES(?, ?, ?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	mem := newBatch(tx, "INSERT INTO community_members(community_id, entity_id, rank, centrality) VALUES ", "(?, ?, ?, ?)", "")
	defer mem.close()
	for i, c := range cs {
		report, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if _, err := ins.ExecContext(ctx, c.ID, c.Name, c.Method, c.Size, report); err != nil {
			return fmt.Errorf("write community %d: %w", c.ID, err)
		}
		for rank, m := range members[i] {
			if err := mem.add(ctx, c.ID, m.EntityID, rank, m.Centrality); err != nil {
				return fmt.Errorf("write community %d's members: %w", c.ID, err)
			}
		}
	}
	if err := mem.flush(ctx); err != nil {
		return fmt.Errorf("write communities' members: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("write communities: %w", err)
	}
	return nil
}

// Communities reads every community's report, largest first.
func (s *DB) Communities(ctx context.Context) ([]kg.Community, error) {
	rows, err := s.query(ctx, "SELECT report FROM communities ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read communities: %w", err)
	}
	defer rows.Close()
	var out []kg.Community
	for rows.Next() {
		var b []byte
		if err := rows.Scan(&b); err != nil {
			return nil, err
		}
		var c kg.Community
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("read a community's report: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Community reads one community's report; store.ErrNotFound when there
// is none with that id.
func (s *DB) Community(ctx context.Context, id int64) (*kg.Community, error) {
	var b []byte
	err := s.queryRow(ctx, "SELECT report FROM communities WHERE id = ?", id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, store.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read community %d: %w", id, err)
	}
	var c kg.Community
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("read community %d's report: %w", id, err)
	}
	return &c, nil
}

// CommunityMembers lists a community's members, most central first.
func (s *DB) CommunityMembers(ctx context.Context, id int64) ([]kg.CommunityMember, error) {
	rows, err := s.query(ctx, `SELECT e.id, e.name, e.type, m.centrality FROM community_members m JOIN entities e ON e.id = m.entity_id
		WHERE m.community_id = ? ORDER BY m.rank`, id)
	if err != nil {
		return nil, fmt.Errorf("read community %d's members: %w", id, err)
	}
	defer rows.Close()
	var out []kg.CommunityMember
	for rows.Next() {
		var m kg.CommunityMember
		if err := rows.Scan(&m.EntityID, &m.Name, &m.Type, &m.Centrality); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// EntityCommunity is the community an entity belongs to, 0 when none.
func (s *DB) EntityCommunity(ctx context.Context, entityID int64) (int64, error) {
	var id int64
	err := s.queryRow(ctx, "SELECT community_id FROM community_members WHERE entity_id = ? LIMIT 1", entityID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the community of entity %d: %w", entityID, err)
	}
	return id, nil
}

// CommunityRef names the community an entity belongs to.
type CommunityRef struct {
	ID   int64
	Name string
}

// EntityCommunities are the communities of the given entities, for those
// that belong to one.
func (s *DB) EntityCommunities(ctx context.Context, ids []int64) (map[int64]CommunityRef, error) {
	out := map[int64]CommunityRef{}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := s.query(ctx, `SELECT m.entity_id, c.id, c.name FROM community_members m JOIN communities c ON c.id = m.community_id
		WHERE m.entity_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?))`, idList(ids))
	if err != nil {
		return nil, fmt.Errorf("read the communities of entities: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e int64
		var c CommunityRef
		if err := rows.Scan(&e, &c.ID, &c.Name); err != nil {
			return nil, err
		}
		out[e] = c
	}
	return out, rows.Err()
}

// Link is a relation between two entities of a set, for drawing them.
type Link struct {
	ID, Head, Tail int64
	Type, Status   string
	Support        int
}

// LinksAmong lists the relations whose head and tail are both among ids,
// best supported first, at most limit.
func (s *DB) LinksAmong(ctx context.Context, ids []int64, limit int) ([]Link, error) {
	if len(ids) < 2 {
		return nil, nil
	}
	rows, err := s.query(ctx, `SELECT id, head_id, tail_id, type, status, support FROM relations
		WHERE head_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)) AND tail_id IN (SELECT CAST(value AS BIGINT) FROM json_each(?1)) AND head_id != tail_id
		ORDER BY support DESC, id LIMIT ?2`, idList(ids), limit)
	if err != nil {
		return nil, fmt.Errorf("read the relations among entities: %w", err)
	}
	defer rows.Close()
	var out []Link
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.ID, &l.Head, &l.Tail, &l.Type, &l.Status, &l.Support); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
