package en

import (
	"strings"

	"github.com/annals-project/annals/internal/extract"
)

// nameIndex resolves short references against the names a document has
// introduced so far.
type nameIndex struct {
	doc *extract.DocContext
	// parts maps the first or last word of a full person name to the full
	// names it can stand for.
	parts map[string][]string
}

func newNameIndex(doc *extract.DocContext) *nameIndex {
	if doc.Names == nil {
		doc.Names = map[string]string{}
	}
	if doc.Types == nil {
		doc.Types = map[string]string{}
	}
	n := &nameIndex{doc: doc, parts: map[string][]string{}}
	for _, full := range doc.Names {
		if doc.Types[full] == "person" {
			n.addParts(full)
		}
	}
	return n
}

func (n *nameIndex) addParts(full string) {
	ws := strings.Fields(full)
	if len(ws) < 2 {
		return
	}
	// Titles are not names: "Lady Sun" is found by "Sun", not "Lady".
	for len(ws) > 0 && (regnalTitles[strings.ToLower(ws[0])] || honorifics[strings.ToLower(ws[0])]) {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return
	}
	for _, w := range []string{ws[0], ws[len(ws)-1]} {
		if w == full {
			continue
		}
		dup := false
		for _, f := range n.parts[w] {
			if f == full {
				dup = true
				break
			}
		}
		if !dup {
			n.parts[w] = append(n.parts[w], full)
		}
	}
}

// known reports whether a word is a name the document has seen.
func (n *nameIndex) known(w string) bool {
	if _, ok := n.doc.Names[w]; ok {
		return true
	}
	return len(n.parts[w]) > 0
}

// lookup returns the canonical name and type of a name seen before.
func (n *nameIndex) lookup(key string) (string, string) {
	c, ok := n.doc.Names[key]
	if !ok {
		return "", ""
	}
	return c, n.doc.Types[c]
}

// short resolves one word standing for a full person name seen before; it
// returns "" when the word is unknown or could mean more than one person.
func (n *nameIndex) short(w string) string {
	if fs := n.parts[w]; len(fs) == 1 {
		return fs[0]
	}
	return ""
}

// person returns the canonical name of a person mention when it differs from
// its text.
func (n *nameIndex) person(text string) string {
	if c, typ := n.lookup(text); typ == "person" && c != text {
		return c
	}
	if !strings.Contains(text, " ") {
		return n.short(text)
	}
	return ""
}

// record remembers a full name and its type.
func (n *nameIndex) record(name, typ string) {
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
func (n *nameIndex) alias(alias, canon string) {
	if _, ok := n.doc.Names[alias]; ok || alias == canon {
		return
	}
	n.doc.Names[alias] = canon
}
