// Package schema defines the entity, relation and attribute types that
// extraction is bounded by, and ships the zh-history and general schemas.
package schema

import (
	"embed"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

//go:embed schemas/*.yaml
var shipped embed.FS

// EntityType is a kind of node.
type EntityType struct {
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
}

// RelationType is a kind of edge, written head → tail. An empty Domain or
// Range accepts any entity type.
type RelationType struct {
	Name        string   `yaml:"name" json:"name"`
	Description string   `yaml:"description,omitempty" json:"description,omitempty"`
	Domain      []string `yaml:"domain" json:"domain"`
	Range       []string `yaml:"range" json:"range"`
	Symmetric   bool     `yaml:"symmetric,omitempty" json:"symmetric,omitempty"`
}

// AttributeType is a named property of an entity (字, 号 …).
type AttributeType struct {
	Name        string `yaml:"name" json:"name"`
	Description string `yaml:"description,omitempty" json:"description,omitempty"`
}

// Schema bounds what extraction may produce.
type Schema struct {
	Name           string          `yaml:"name" json:"name"`
	Description    string          `yaml:"description,omitempty" json:"description,omitempty"`
	EntityTypes    []EntityType    `yaml:"entity_types" json:"entity_types"`
	RelationTypes  []RelationType  `yaml:"relation_types" json:"relation_types"`
	AttributeTypes []AttributeType `yaml:"attribute_types" json:"attribute_types"`

	entities  map[string]bool
	relations map[string]*RelationType
}

// Names of the shipped schemas.
const (
	ZhHistory = "zh-history"
	General   = "general"
)

// Shipped lists the names of the schemas built into the binary.
func Shipped() []string { return []string{General, ZhHistory} }

// Load returns a shipped schema by name, or reads a YAML file when nameOrPath
// ends in .yaml or .yml.
func Load(nameOrPath string) (*Schema, error) {
	var data []byte
	var err error
	if strings.HasSuffix(nameOrPath, ".yaml") || strings.HasSuffix(nameOrPath, ".yml") {
		data, err = os.ReadFile(nameOrPath)
		if err != nil {
			return nil, fmt.Errorf("read schema: %w", err)
		}
	} else {
		data, err = shipped.ReadFile("schemas/" + nameOrPath + ".yaml")
		if err != nil {
			return nil, fmt.Errorf("unknown schema %q (shipped: %s; or give a .yaml file)", nameOrPath, strings.Join(Shipped(), ", "))
		}
	}
	return Parse(data)
}

// MustLoad is Load for shipped schemas, which cannot fail.
func MustLoad(name string) *Schema {
	s, err := Load(name)
	if err != nil {
		panic(err)
	}
	return s
}

var defaults sync.Map // schema name → *Schema

// DefaultFor is the shipped schema a language uses by default, loaded once.
func DefaultFor(lang string) *Schema {
	name := ForLanguage(lang)
	if s, ok := defaults.Load(name); ok {
		return s.(*Schema)
	}
	s, _ := defaults.LoadOrStore(name, MustLoad(name))
	return s.(*Schema)
}

// ForLanguage names the default schema for a language code.
func ForLanguage(lang string) string {
	switch lang {
	case "lzh", "zh":
		return ZhHistory
	}
	return General
}

// Parse reads a schema from YAML and checks it.
func Parse(data []byte) (*Schema, error) {
	var s Schema
	if err := yaml.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("parse schema: %w", err)
	}
	if err := s.index(); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *Schema) index() error {
	if s.Name == "" {
		return fmt.Errorf("schema has no name")
	}
	s.entities = make(map[string]bool, len(s.EntityTypes))
	for _, e := range s.EntityTypes {
		if e.Name == "" {
			return fmt.Errorf("schema %s: entity type without a name", s.Name)
		}
		s.entities[e.Name] = true
	}
	s.relations = make(map[string]*RelationType, len(s.RelationTypes))
	for i := range s.RelationTypes {
		r := &s.RelationTypes[i]
		if r.Name == "" {
			return fmt.Errorf("schema %s: relation type without a name", s.Name)
		}
		for _, t := range append(append([]string{}, r.Domain...), r.Range...) {
			if !s.entities[t] {
				return fmt.Errorf("schema %s: relation %s names unknown entity type %q", s.Name, r.Name, t)
			}
		}
		s.relations[r.Name] = r
	}
	return nil
}

// HasEntityType reports whether t is one of the schema's entity types.
func (s *Schema) HasEntityType(t string) bool { return s.entities[t] }

// Relation returns the relation type named r, or nil.
func (s *Schema) Relation(r string) *RelationType { return s.relations[r] }

// Allows reports whether head -r-> tail respects the schema's domain and range.
func (s *Schema) Allows(headType, r, tailType string) bool {
	rt := s.relations[r]
	if rt == nil {
		return false
	}
	return in(rt.Domain, headType) && in(rt.Range, tailType)
}

func in(list []string, t string) bool {
	if len(list) == 0 {
		return true
	}
	for _, x := range list {
		if x == t {
			return true
		}
	}
	return false
}

// EntityTypeNames lists the entity types in schema order.
func (s *Schema) EntityTypeNames() []string {
	out := make([]string, len(s.EntityTypes))
	for i, e := range s.EntityTypes {
		out[i] = e.Name
	}
	return out
}

// RelationTypeNames lists the relation types, sorted.
func (s *Schema) RelationTypeNames() []string {
	out := make([]string, 0, len(s.relations))
	for n := range s.relations {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
