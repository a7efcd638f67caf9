package latin

import (
	"strings"

	"github.com/annals-project/annals/internal/extract"
)

// NameRules say how a language shortens people's names.
type NameRules struct {
	// Shorts lists the short forms of a full person name of two or more
	// words.
	Shorts func(words []string) []string
	// Key is the form short forms are compared in; nil compares them as
	// written.
	Key func(string) string
	// MaxShort is the most words a short form may have.
	MaxShort int
}

// Names resolves short references against the names a document has
// introduced so far. It keeps what it learns in the document's context, so
// later chunks of the document resolve them too.
type Names struct {
	doc   *extract.DocContext
	rules NameRules
	// parts maps the short forms of full person names to the full names
	// they can stand for.
	parts map[string][]string
}

// NewNames indexes the names doc has seen.
func NewNames(doc *extract.DocContext, rules NameRules) *Names {
	if doc.Names == nil {
		doc.Names = map[string]string{}
	}
	if doc.Types == nil {
		doc.Types = map[string]string{}
	}
	n := &Names{doc: doc, rules: rules, parts: map[string][]string{}}
	for _, full := range doc.Names {
		if doc.Types[full] == "person" {
			n.addParts(full)
		}
	}
	return n
}

func (n *Names) key(s string) string {
	if n.rules.Key == nil {
		return s
	}
	return n.rules.Key(s)
}

func (n *Names) addParts(full string) {
	ws := strings.Fields(full)
	if len(ws) < 2 {
		return
	}
	for _, w := range n.rules.Shorts(ws) {
		k := n.key(w)
		dup := false
		for _, f := range n.parts[k] {
			if f == full {
				dup = true
				break
			}
		}
		if !dup {
			n.parts[k] = append(n.parts[k], full)
		}
	}
}

// Known reports whether w is a name the document has seen, in full or as a
// short form.
func (n *Names) Known(w string) bool {
	if _, ok := n.doc.Names[w]; ok {
		return true
	}
	return len(n.parts[n.key(w)]) > 0
}

// Lookup returns the canonical name and type of a name seen before.
func (n *Names) Lookup(text string) (string, string) {
	c, ok := n.doc.Names[text]
	if !ok {
		return "", ""
	}
	return c, n.doc.Types[c]
}

// Short resolves a short form standing for one full person name seen
// before; it returns "" when the form is unknown or could mean more than one
// person.
func (n *Names) Short(text string) string {
	if fs := n.parts[n.key(text)]; len(fs) == 1 {
		return fs[0]
	}
	return ""
}

// Person returns the canonical name of a person mention when it differs
// from its text.
func (n *Names) Person(text string) string {
	if c, typ := n.Lookup(text); typ == "person" && c != text {
		return c
	}
	if len(strings.Fields(text)) <= n.rules.MaxShort {
		if c := n.Short(text); c != text {
			return c
		}
	}
	return ""
}

// record remembers a full name and its type.
func (n *Names) record(name, typ string) {
	if _, ok := n.doc.Names[name]; ok {
		return
	}
	n.doc.Names[name] = name
	n.doc.Types[name] = typ
	if typ == "person" {
		n.addParts(name)
	}
}

// alias remembers that alias names canon.
func (n *Names) alias(alias, canon string) {
	if _, ok := n.doc.Names[alias]; ok || alias == canon {
		return
	}
	n.doc.Names[alias] = canon
}
