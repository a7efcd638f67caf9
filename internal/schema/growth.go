package schema

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Kinds of schema element a Proposal can add.
const (
	KindEntity    = "entity"
	KindRelation  = "relation"
	KindAttribute = "attribute"
)

// Defaults of GrowthOptions: a new type needs confidence ≥ 0.8 in at least
// three distinct chunks before it joins the schema (Youtu-GraphRAG eq. 3).
const (
	DefaultGrowthThreshold = 0.8
	DefaultGrowthChunks    = 3
)

// Limits that keep a noisy extractor from bloating the tracker.
const (
	maxNameRunes     = 64
	maxChunksTracked = 256
	maxEvidence      = 3
	maxTypesPerSide  = 8
)

// Proposal is one suggestion, made while reading one chunk, that the schema
// lacks a type.
type Proposal struct {
	Kind        string   `json:"kind"` // entity, relation or attribute
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Domain      []string `json:"domain,omitempty"` // relations only
	Range       []string `json:"range,omitempty"`  // relations only
	Confidence  float64  `json:"confidence"`       // 0–1
	Chunk       string   `json:"chunk"`            // identifies the chunk it came from
	Evidence    string   `json:"evidence,omitempty"`
}

// Candidate is everything proposed under one kind and name.
type Candidate struct {
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Domain      []string `json:"domain,omitempty"`
	Range       []string `json:"range,omitempty"`
	// Chunks holds the best confidence seen in each chunk.
	Chunks   map[string]float64 `json:"chunks"`
	Evidence []string           `json:"evidence,omitempty"`
	// Support counts the chunks whose confidence reached the threshold; it
	// is computed, never read back.
	Support int `json:"support"`
}

// GrowthOptions tune when a proposal is accepted; zero values take the
// defaults.
type GrowthOptions struct {
	Threshold float64 // μ
	MinChunks int
}

// Growth collects schema proposals and accepts those that recur with high
// confidence. It is safe for concurrent use and serialises to JSON so that
// its state survives between runs.
type Growth struct {
	mu    sync.Mutex
	opts  GrowthOptions
	cands map[string]*Candidate
}

// NewGrowth returns an empty tracker.
func NewGrowth(opts GrowthOptions) *Growth {
	return &Growth{opts: opts.withDefaults(), cands: map[string]*Candidate{}}
}

func (o GrowthOptions) withDefaults() GrowthOptions {
	if o.Threshold <= 0 || math.IsNaN(o.Threshold) {
		o.Threshold = DefaultGrowthThreshold
	}
	if o.MinChunks <= 0 {
		o.MinChunks = DefaultGrowthChunks
	}
	return o
}

// Options returns the thresholds in force.
func (g *Growth) Options() GrowthOptions {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.opts
}

func candKey(kind, name string) string { return kind + "\x00" + strings.ToLower(name) }

// Propose records p and reports whether it made its candidate reach
// acceptance just now. Proposals of an unknown kind or without a usable
// name are ignored.
func (g *Growth) Propose(p Proposal) bool {
	p.Kind = strings.ToLower(strings.TrimSpace(p.Kind))
	p.Name = strings.TrimSpace(p.Name)
	switch p.Kind {
	case KindEntity, KindRelation, KindAttribute:
	default:
		return false
	}
	if p.Name == "" || utf8.RuneCountInString(p.Name) > maxNameRunes {
		return false
	}
	conf := p.Confidence
	if math.IsNaN(conf) || conf < 0 {
		conf = 0
	}
	conf = min(conf, 1)

	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cands == nil {
		g.cands = map[string]*Candidate{}
	}
	k := candKey(p.Kind, p.Name)
	c := g.cands[k]
	if c == nil {
		c = &Candidate{Kind: p.Kind, Name: p.Name, Chunks: map[string]float64{}}
		g.cands[k] = c
	}
	before := g.support(c) >= g.opts.MinChunks
	if c.Description == "" {
		c.Description = strings.TrimSpace(p.Description)
	}
	qualifies := conf >= g.opts.Threshold
	if qualifies && p.Kind == KindRelation {
		// Only confident proposals shape the relation's domain and range,
		// so that one doubtful reading cannot widen it.
		c.Domain = union(c.Domain, p.Domain)
		c.Range = union(c.Range, p.Range)
	}
	g.record(c, p.Chunk, conf)
	if qualifies && p.Evidence != "" && len(c.Evidence) < maxEvidence {
		c.Evidence = append(c.Evidence, p.Evidence)
	}
	return !before && g.support(c) >= g.opts.MinChunks
}

// record keeps the best confidence per chunk, within a bound: when full, a
// qualifying chunk displaces one that does not qualify.
func (g *Growth) record(c *Candidate, chunk string, conf float64) {
	if old, ok := c.Chunks[chunk]; ok {
		c.Chunks[chunk] = max(old, conf)
		return
	}
	if len(c.Chunks) < maxChunksTracked {
		c.Chunks[chunk] = conf
		return
	}
	if conf < g.opts.Threshold {
		return
	}
	for id, v := range c.Chunks {
		if v < g.opts.Threshold {
			delete(c.Chunks, id)
			c.Chunks[chunk] = conf
			return
		}
	}
}

func (g *Growth) support(c *Candidate) int {
	n := 0
	for _, v := range c.Chunks {
		if v >= g.opts.Threshold {
			n++
		}
	}
	return n
}

func union(a, b []string) []string {
	for _, x := range b {
		x = strings.TrimSpace(x)
		if x == "" || len(a) >= maxTypesPerSide {
			continue
		}
		dup := false
		for _, y := range a {
			if y == x {
				dup = true
				break
			}
		}
		if !dup {
			a = append(a, x)
		}
	}
	return a
}

// Accepted lists the candidates that have reached the threshold in enough
// chunks, sorted by kind and name.
func (g *Growth) Accepted() []Candidate { return g.list(true) }

// Pending lists the candidates that have not, sorted by kind and name.
func (g *Growth) Pending() []Candidate { return g.list(false) }

func (g *Growth) list(accepted bool) []Candidate {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []Candidate
	for _, c := range g.cands {
		n := g.support(c)
		if (n >= g.opts.MinChunks) != accepted {
			continue
		}
		out = append(out, c.copyWith(n))
	}
	sortCandidates(out)
	return out
}

func (c *Candidate) copyWith(support int) Candidate {
	cp := *c
	cp.Domain = append([]string(nil), c.Domain...)
	cp.Range = append([]string(nil), c.Range...)
	cp.Evidence = append([]string(nil), c.Evidence...)
	cp.Chunks = make(map[string]float64, len(c.Chunks))
	for k, v := range c.Chunks {
		cp.Chunks[k] = v
	}
	cp.Support = support
	return cp
}

func sortCandidates(cs []Candidate) {
	order := map[string]int{KindEntity: 0, KindAttribute: 1, KindRelation: 2}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].Kind != cs[j].Kind {
			return order[cs[i].Kind] < order[cs[j].Kind]
		}
		return cs[i].Name < cs[j].Name
	})
}

// Apply returns a copy of s extended with the accepted types; s itself is
// not changed. Types already in s are left as they are. An accepted
// relation keeps only the domain and range types the extended schema
// knows, and is left out when that would empty a side that was not empty
// (an empty side would accept every type).
func (g *Growth) Apply(s *Schema) *Schema {
	if s == nil {
		return nil
	}
	c := s.clone()
	if g == nil {
		return c
	}
	acc := g.Accepted()
	for _, a := range acc {
		if a.Kind == KindEntity && !c.entities[a.Name] {
			c.EntityTypes = append(c.EntityTypes, EntityType{Name: a.Name, Description: a.Description})
			c.entities[a.Name] = true
		}
	}
	attrs := map[string]bool{}
	for _, a := range c.AttributeTypes {
		attrs[a.Name] = true
	}
	for _, a := range acc {
		if a.Kind == KindAttribute && !attrs[a.Name] {
			c.AttributeTypes = append(c.AttributeTypes, AttributeType{Name: a.Name, Description: a.Description})
			attrs[a.Name] = true
		}
	}
	for _, a := range acc {
		if a.Kind != KindRelation || c.relations[a.Name] != nil {
			continue
		}
		dom, rng := c.known(a.Domain), c.known(a.Range)
		if len(dom) == 0 && len(a.Domain) > 0 || len(rng) == 0 && len(a.Range) > 0 {
			continue
		}
		c.RelationTypes = append(c.RelationTypes, RelationType{Name: a.Name, Description: a.Description, Domain: dom, Range: rng})
		c.relations[a.Name] = &c.RelationTypes[len(c.RelationTypes)-1]
	}
	if err := c.index(); err != nil {
		// Cannot happen with the checks above; never hand back a schema
		// that does not index.
		return s.clone()
	}
	return c
}

func (s *Schema) known(types []string) []string {
	var out []string
	for _, t := range types {
		if s.entities[t] {
			out = append(out, t)
		}
	}
	return out
}

// clone deep-copies s and indexes the copy.
func (s *Schema) clone() *Schema {
	c := &Schema{Name: s.Name, Description: s.Description}
	c.EntityTypes = append([]EntityType(nil), s.EntityTypes...)
	c.AttributeTypes = append([]AttributeType(nil), s.AttributeTypes...)
	c.RelationTypes = make([]RelationType, len(s.RelationTypes))
	for i, r := range s.RelationTypes {
		r.Domain = append([]string(nil), r.Domain...)
		r.Range = append([]string(nil), r.Range...)
		c.RelationTypes[i] = r
	}
	if err := c.index(); err != nil {
		// s indexed when it was parsed, so its copy does too; a Schema
		// built by hand may not, and then keeps whatever indexed.
		c.entities, c.relations = map[string]bool{}, map[string]*RelationType{}
		for _, e := range c.EntityTypes {
			c.entities[e.Name] = true
		}
	}
	return c
}

// growthState is the serialised form of a Growth.
type growthState struct {
	Threshold  float64     `json:"threshold"`
	MinChunks  int         `json:"min_chunks"`
	Candidates []Candidate `json:"candidates"`
}

// MarshalJSON writes the thresholds and every candidate.
func (g *Growth) MarshalJSON() ([]byte, error) {
	g.mu.Lock()
	st := growthState{Threshold: g.opts.Threshold, MinChunks: g.opts.MinChunks, Candidates: []Candidate{}}
	for _, c := range g.cands {
		st.Candidates = append(st.Candidates, c.copyWith(g.support(c)))
	}
	g.mu.Unlock()
	sortCandidates(st.Candidates)
	return json.Marshal(st)
}

// UnmarshalJSON replaces g's state with one MarshalJSON wrote.
func (g *Growth) UnmarshalJSON(data []byte) error {
	var st growthState
	if err := json.Unmarshal(data, &st); err != nil {
		return err
	}
	cands := make(map[string]*Candidate, len(st.Candidates))
	for i := range st.Candidates {
		c := st.Candidates[i]
		if c.Name == "" {
			continue
		}
		if c.Chunks == nil {
			c.Chunks = map[string]float64{}
		}
		c.Support = 0
		cands[candKey(c.Kind, c.Name)] = &c
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.opts = GrowthOptions{Threshold: st.Threshold, MinChunks: st.MinChunks}.withDefaults()
	g.cands = cands
	return nil
}
