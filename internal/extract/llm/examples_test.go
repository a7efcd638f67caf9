package llmextract

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/schema"
)

// Each worked example must be one the extractor would accept: types and
// relations of its language's schema, entities written as in the text,
// triples between its entities.
func TestExamplesFollowTheirSchema(t *testing.T) {
	all, hash, err := loadExamples()
	if err != nil || hash == "" {
		t.Fatalf("load examples: %v", err)
	}
	for _, lang := range promptLangs {
		sch := schema.MustLoad(schema.ZhHistory)
		if lang == "en" || lang == "vi" {
			sch = schema.MustLoad(schema.General)
		}
		if len(all[lang]) < FiveShot {
			t.Errorf("%s: %d examples, want at least %d", lang, len(all[lang]), FiveShot)
		}
		for i, ex := range all[lang] {
			var r struct {
				Entities []struct{ Text, Type, Name string }
				Triples  []struct{ Head, Relation, Tail string }
				// Attributes of the schema, of an entity of the
				// example, with a value the text holds.
				Attributes []struct{ Entity, Attribute, Value string }
			}
			if err := json.Unmarshal(ex.Reply, &r); err != nil {
				t.Fatalf("%s %d: %v", lang, i, err)
			}
			texts := map[string]string{}
			for _, e := range r.Entities {
				if !strings.Contains(ex.Text, e.Text) || !sch.HasEntityType(e.Type) {
					t.Errorf("%s %d: entity %+v not in the text or the schema", lang, i, e)
				}
				texts[e.Text] = e.Type
			}
			for _, tr := range r.Triples {
				h, okH := texts[tr.Head]
				tl, okT := texts[tr.Tail]
				if !okH || !okT || !sch.Allows(h, tr.Relation, tl) {
					t.Errorf("%s %d: triple %+v: its ends are no entities, or %s→%s→%s is not in the schema", lang, i, tr, h, tr.Relation, tl)
				}
			}
			for _, a := range r.Attributes {
				known := false
				for _, at := range sch.AttributeTypes {
					known = known || at.Name == a.Attribute
				}
				if _, ok := texts[a.Entity]; !ok || !known || !strings.Contains(ex.Text, a.Value) {
					t.Errorf("%s %d: attribute %+v: not of an entity, not in the schema, or its value not in the text", lang, i, a)
				}
			}
		}
	}
}

func TestExamplesShowAttributes(t *testing.T) {
	all, _, _ := loadExamples()
	for _, lang := range promptLangs {
		n := 0
		for _, ex := range all[lang] {
			n += strings.Count(string(ex.Reply), `"attribute":`)
		}
		if n == 0 {
			t.Errorf("no example of %s shows an attribute", lang)
		}
	}
}

func TestPromptVariants(t *testing.T) {
	prompts := map[int]string{}
	versions := map[string]bool{}
	for _, shots := range []int{OneShot, FiveShot, ZeroShot} {
		_, _, f := run(t, lzhText, "lzh", goodReply, Options{Shots: shots})
		req := f.requests()[0]
		prompts[shots] = req.Messages[0].Content
		versions[New(f, Options{Shots: shots}).VersionFor("lzh")] = true
	}
	if n := strings.Count(prompts[OneShot], "原文："); n != 1 {
		t.Errorf("one-shot shows %d examples", n)
	}
	if n := strings.Count(prompts[FiveShot], "原文："); n != FiveShot || !strings.Contains(prompts[FiveShot], "韩世忠") {
		t.Errorf("five-shot shows %d examples:\n%s", n, prompts[FiveShot])
	}
	if z := prompts[ZeroShot]; strings.Contains(z, "原文：") || !strings.Contains(z, "按五步依次写出") || !strings.Contains(z, "步骤：1译为简洁现代文") {
		t.Errorf("zero-shot shows examples or lacks the steps:\n%s", z)
	}
	if len(versions) != 3 {
		t.Errorf("the variants share a version: %v", versions)
	}
	// A growing schema's examples reply with new_types, as the model must.
	_, _, f := run(t, lzhText, "lzh", goodReply, Options{Shots: FiveShot, AllowGrowth: true})
	if n := strings.Count(f.requests()[0].Messages[0].Content, `"new_types":[]}`); n != FiveShot {
		t.Errorf("%d of five examples end with new_types", n)
	}
}
