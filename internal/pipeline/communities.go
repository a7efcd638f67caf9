package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/annals-project/annals/internal/community"
	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/store"
)

// StepCommunities is the corpus step that finds communities and writes
// their reports.
const StepCommunities = "communities"

// communitiesVersion changes when detection or reports change, so that a
// new binary finds the communities again.
const communitiesVersion = "c1"

// StateCommunities records the graph the stored communities were found
// in: the step's version, the method, and the graph's generation. Readers
// key their copies of the reports by it.
const StateCommunities = "communities"

// Detection methods.
const (
	MethodDual   = "dual"
	MethodLeiden = "leiden"
)

// CommunityStore is what the communities step reads and writes.
type CommunityStore interface {
	community.ReportSource
	CommunityGraph(ctx context.Context) ([]store.GraphNode, []store.GraphEdge, error)
	ChunkVectors(ctx context.Context) (ids []int64, models []string, vecs [][]byte, err error)
	ReplaceCommunities(ctx context.Context, cs []kg.Community, members [][]kg.CommunityMember) error
	RelationGeneration(ctx context.Context) (maxID, aligned int64, err error)
	ChunkVectorGeneration(ctx context.Context) (string, error)
	State(ctx context.Context, name string) ([]byte, error)
	SetState(ctx context.Context, name string, value []byte) error
}

// CommunityReport says what the communities step did.
type CommunityReport struct {
	Method      string  `json:"method"`
	Current     bool    `json:"current"` // the graph had not changed: nothing was done
	Nodes       int     `json:"nodes"`
	Edges       int     `json:"edges"`
	Communities int     `json:"communities"`
	Modularity  float64 `json:"modularity"`
	// Written counts the reports an LLM wrote; WriteErrors say why others
	// kept only their offline report (the first few).
	Written     int      `json:"written,omitempty"`
	WriteErrors []string `json:"write_errors,omitempty"`
}

// ReportWriter writes a community's report with an LLM (community.Writer).
type ReportWriter interface {
	Write(ctx context.Context, c *kg.Community) (llm.Usage, error)
}

// writtenReports bounds the reports an LLM writes in one run, largest
// communities first; the rest keep their offline reports.
const writtenReports = 60

// Communities is the corpus step that groups the graph's people, places,
// groups and events into communities (by method: leiden, the default, or
// dual) and writes a report of each. Leiden is the default because on the
// First Four Histories it scored the higher modularity (0.633 against
// 0.562) and kept the sides apart (孙权's 吴 from 曹操's 魏), where dual
// perception grouped the Three Kingdoms as one era. Communities are global: when any relation,
// alignment or passage vector changed since they were found, all are found
// again; when none did, the step costs a query.
func Communities(db CommunityStore, method string) CorpusStep {
	return CommunitiesWritten(db, method, nil)
}

// CommunitiesWritten is Communities whose reports an LLM also writes, in
// the map-reduce style of GraphRAG global search (nil: offline reports
// only). A report the model fails to write keeps its offline one.
func CommunitiesWritten(db CommunityStore, method string, w ReportWriter) CorpusStep {
	if method == "" {
		method = MethodLeiden
	}
	return communities{db: db, method: method, writer: w}
}

type communities struct {
	db     CommunityStore
	method string
	writer ReportWriter
}

func (communities) Name() string { return StepCommunities }

// Version names what the reports hold: written ones are found again when
// a model is first configured.
func (s communities) Version() string {
	v := communitiesVersion + "-" + s.method
	if s.writer != nil {
		v += "-written"
	}
	return v
}

func (s communities) Run(ctx context.Context, r *Run) error {
	rep := &CommunityReport{Method: s.method}
	r.Report.Communities = rep
	maxID, aligned, err := s.db.RelationGeneration(ctx)
	if err != nil {
		return err
	}
	vecs, err := s.db.ChunkVectorGeneration(ctx)
	if err != nil {
		return err
	}
	key := s.Version() + "/" + strconv.FormatInt(maxID, 10) + "/" + strconv.FormatInt(aligned, 10) + "/" + vecs
	if prev, err := s.db.State(ctx, StateCommunities); err != nil {
		return err
	} else if string(prev) == key {
		rep.Current = true
		return nil
	}
	g, err := CommunityGraph(ctx, s.db)
	if err != nil {
		return err
	}
	rep.Nodes, rep.Edges = len(g.Nodes), len(g.Edges)
	of := Detect(g, s.method)
	rep.Modularity = community.Modularity(g, of)
	reports, members, err := community.Reports(ctx, s.db, g, of, s.method)
	if err != nil {
		return err
	}
	rep.Communities = len(reports)
	if err := s.write(ctx, reports, rep); err != nil {
		return err
	}
	if err := s.db.ReplaceCommunities(ctx, reports, members); err != nil {
		return err
	}
	return s.db.SetState(ctx, StateCommunities, []byte(key))
}

// write has the LLM write the largest communities' reports. A cancelled
// run stops; a spent token budget stops the writing, keeping what was
// written; any other failure leaves that community its offline report.
func (s communities) write(ctx context.Context, reports []kg.Community, rep *CommunityReport) error {
	if s.writer == nil {
		return nil
	}
	for i := range reports[:min(len(reports), writtenReports)] {
		_, err := s.writer.Write(ctx, &reports[i])
		switch {
		case err == nil:
			if reports[i].Written != nil {
				rep.Written++
			}
		case ctx.Err() != nil:
			return ctx.Err()
		case errors.Is(err, llm.ErrBudget):
			rep.WriteErrors = append(rep.WriteErrors, err.Error())
			return nil
		default:
			if len(rep.WriteErrors) < 5 {
				rep.WriteErrors = append(rep.WriteErrors, err.Error())
			}
		}
	}
	return nil
}

// Detect partitions g by method (leiden by default).
func Detect(g *community.Graph, method string) []int {
	if method == MethodDual {
		return community.Dual(g, community.DualOptions{})
	}
	return community.Leiden(g, community.LeidenOptions{Seed: 42})
}

// enmity are relations of conflict: they join two sides, so they count
// for less than ties of service, kin or alliance when grouping.
var enmity = map[string]float64{"攻": 0.3, "消极态度倾向": 0.3, "胜": 0.3, "败": 0.3, "attacked": 0.3}

// CommunityGraph reads the graph for detection: each entity's vector is
// the mean of the vectors of the passages that mention it (what is said
// where it appears), and each relation is weighted by its support.
func CommunityGraph(ctx context.Context, db CommunityStore) (*community.Graph, error) {
	nodes, edges, err := db.CommunityGraph(ctx)
	if err != nil {
		return nil, err
	}
	ids, _, raw, err := db.ChunkVectors(ctx)
	if err != nil {
		return nil, fmt.Errorf("read passage vectors for communities: %w", err)
	}
	vec := make(map[int64][]float32, len(ids))
	dim := 0
	for i, id := range ids {
		v, err := embed.Decode(raw[i])
		if err != nil {
			continue // an unreadable vector only loses one passage
		}
		if dim == 0 {
			dim = len(v)
		}
		if len(v) == dim {
			vec[id] = v
		}
	}
	g := &community.Graph{Nodes: make([]community.Node, len(nodes))}
	index := make(map[int64]int, len(nodes))
	for i, n := range nodes {
		index[n.ID] = i
		node := community.Node{ID: n.ID, Name: n.Name, Type: n.Type, Weight: n.Mentions}
		if dim > 0 {
			sum, k := make([]float32, dim), 0
			for _, c := range n.Chunks {
				if v, ok := vec[c]; ok {
					for t, x := range v {
						sum[t] += x
					}
					k++
				}
			}
			if k > 0 {
				node.Vector = sum
			}
		}
		g.Nodes[i] = node
	}
	for _, e := range edges {
		w := float64(max(e.Support, 1))
		if f, ok := enmity[e.Type]; ok {
			w *= f
		}
		g.Edges = append(g.Edges, community.Edge{A: index[e.Head], B: index[e.Tail], Relation: e.Type, Weight: w, RelationID: e.RelationID, Years: e.Years})
	}
	return g, nil
}
