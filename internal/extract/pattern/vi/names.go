package vi

import (
	"strings"

	"github.com/annals-project/annals/internal/extract"
)

// nameIndex resolves short references against the names a document has
// introduced so far.
type nameIndex struct {
	doc *extract.DocContext
	// parts maps the short forms of a full person name to the full names
	// they can stand for: the given name ("Lợi" → "Lê Lợi"), the name
	// without the family name ("Thường Kiệt", "Hưng Đạo"), and a title name
	// without its title ("Hưng Đạo Vương" → "Hưng Đạo").
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
	last := key(ws[len(ws)-1])
	var shorts []string
	if titleEnds[last] || last == "công" || last == "hầu" {
		if len(ws) >= 3 {
			shorts = append(shorts, strings.Join(ws[:len(ws)-1], " "))
		}
		// "Lý Thái Tổ" is also called "Thái Tổ".
		if len(ws) == 3 && (last == "tổ" || last == "tông") {
			shorts = append(shorts, strings.Join(ws[1:], " "))
		}
	} else {
		shorts = append(shorts, ws[len(ws)-1])
		if len(ws) >= 3 {
			shorts = append(shorts, strings.Join(ws[1:], " "))
		}
	}
	for _, w := range shorts {
		k := phraseKey(w)
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

// lookup returns the canonical name and type of a name seen before.
func (n *nameIndex) lookup(text string) (string, string) {
	c, ok := n.doc.Names[text]
	if !ok {
		return "", ""
	}
	return c, n.doc.Types[c]
}

// short resolves a short form standing for one full person name seen before;
// it returns "" when the form is unknown or could mean more than one person.
func (n *nameIndex) short(text string) string {
	if fs := n.parts[phraseKey(text)]; len(fs) == 1 {
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
	if len(strings.Fields(text)) <= 2 {
		if c := n.short(text); c != text {
			return c
		}
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
