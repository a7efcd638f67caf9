package llmextract

import (
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
)

func findAttr(res extract.Result, entity, name string) *extract.Attribute {
	for i, a := range res.Attributes {
		if a.Entity.Canonical() == entity && a.Name == name {
			return &res.Attributes[i]
		}
	}
	return nil
}

// Attributes come back with the offsets of their entity, their value and
// the sentence that states them; a name among them is also an alias of
// its kind.
func TestReplyAttributes(t *testing.T) {
	reply := `{"entities":[{"text":"曹操","type":"人物"},{"text":"献帝","type":"人物"},{"text":"丞相","type":"职官"},{"text":"操","type":"人物","name":"曹操"}],
"triples":[{"head":"操","relation":"任官","tail":"丞相"}],
"attributes":[{"entity":"曹操","attribute":"字","value":"孟德","evidence":"曹操字孟德"}]}`
	out, st, _ := run(t, lzhText, "lzh", reply, Options{})
	res := out.Result
	a := findAttr(res, "曹操", "字")
	if a == nil || len(res.Attributes) != 1 {
		t.Fatalf("attributes %+v", res.Attributes)
	}
	if a.Value != "孟德" || a.At != (kg.Span{Start: at(t, lzhText, "孟德", 0), End: at(t, lzhText, "孟德", 0) + 2}) ||
		a.Entity.Span != (kg.Span{Start: 0, End: 2}) || sentence(lzhText, a.Evidence) != "曹操字孟德，沛国谯人也。" {
		t.Fatalf("attribute %+v", a)
	}
	alias := findTriple(res, "曹操", "别称", "孟德")
	if alias == nil || alias.AliasKind != "字" {
		t.Fatalf("the 字 is not an alias of its kind: %+v", res.Triples)
	}
	if findTriple(res, "操", "任官", "丞相") == nil {
		t.Fatalf("triples lost: %+v", res.Triples)
	}
	if c := st.Counts(); c.Attributes != 1 {
		t.Fatalf("counts %+v", c)
	}
}

// A malformed attribute is dropped, counted, and costs the reply nothing
// else: its entities and triples stay.
func TestMalformedAttributesAreDropped(t *testing.T) {
	reply := `{"entities":[{"text":"曹操","type":"人物"},{"text":"献帝","type":"人物"},{"text":"丞相","type":"职官"},{"text":"操","type":"人物","name":"曹操"}],
"triples":[{"head":"献帝","relation":"下级","tail":"操"},{"head":"操","relation":"任官","tail":"丞相"}],
"attributes":[42,{"entity":"曹操"},{"entity":"曹操","attribute":"字","value":"孔明"},{"entity":"曹操","attribute":"身高","value":"七尺"},
{"entity":"刘备","attribute":"字","value":"孟德"},{"entity":"曹操","attribute":"字","value":"孟德。献帝以操为丞相。操子丕，后为魏文帝"},
["曹操","字"],{"entity":"曹操","attribute":"字","value":"孟德"}]}`
	out, st, _ := run(t, lzhText, "lzh", reply, Options{})
	res := out.Result
	if len(res.Attributes) != 1 || res.Attributes[0].Value != "孟德" {
		t.Fatalf("attributes %+v", res.Attributes)
	}
	if findTriple(res, "献帝", "下级", "操") == nil || findTriple(res, "操", "任官", "丞相") == nil {
		t.Fatalf("triples lost: %+v", res.Triples)
	}
	d := st.Counts().Dropped
	for reason, n := range map[string]int{DropAttrEmpty: 2, DropAttrNotInText: 1, DropAttrType: 1, DropAttrEntity: 1, DropAttrValue: 1} {
		if d[reason] != n {
			t.Errorf("dropped %s: %d, want %d (%v)", reason, d[reason], n, d)
		}
	}
}

// A value the chunk does not hold is refused, whatever the model says.
func TestAttributeValueNotInTextIsRefused(t *testing.T) {
	reply := `{"entities":[{"text":"曹操","type":"人物"}],"triples":[],
"attributes":[{"entity":"曹操","attribute":"号","value":"阿瞒"},{"entity":"曹操","attribute":"谥号","value":"武"}]}`
	out, st, _ := run(t, lzhText, "lzh", reply, Options{})
	if len(out.Result.Attributes) != 0 || len(out.Result.Triples) != 0 {
		t.Fatalf("kept %+v", out.Result)
	}
	if n := st.Counts().Dropped[DropAttrNotInText]; n != 2 {
		t.Fatalf("dropped %v", st.Counts().Dropped)
	}
}

// The shapes models write attributes in besides the one asked for: a
// has_attr triple, a triple whose relation is an attribute type, an
// object keyed by entity, an object of attributes, a tuple, the value and
// the attribute swapped; and an attribute named as a relation is that
// relation's triple.
func TestAttributeShapes(t *testing.T) {
	text := "诸葛亮字孔明，琅邪阳都人也。亮小字阿亮，号卧龙。年五十四卒。"
	for name, reply := range map[string]string{
		"has_attr triple":  `{"entities":[{"text":"诸葛亮","type":"人物"}],"triples":[{"head":"诸葛亮","relation":"has_attr","tail":"字:孔明"}]}`,
		"has_attr keys":    `{"entities":[{"text":"诸葛亮","type":"人物"}],"triples":[{"head":"诸葛亮","relation":"has_attr","attribute":"字","value":"孔明"}]}`,
		"relation is type": `{"entities":[{"text":"诸葛亮","type":"人物"}],"triples":[{"head":"诸葛亮","relation":"字","tail":"孔明"}]}`,
		"keyed by entity":  `{"entities":[{"text":"诸葛亮","type":"人物"}],"attributes":{"诸葛亮":{"字":"孔明"}}}`,
		"object of attrs":  `{"entities":[{"text":"诸葛亮","type":"人物"}],"attributes":[{"entity":"诸葛亮","字":"孔明"}]}`,
		"tuple":            `{"entities":[{"text":"诸葛亮","type":"人物"}],"attributes":["(诸葛亮, 字, 孔明)"]}`,
		"swapped":          `{"entities":[{"text":"诸葛亮","type":"人物"}],"attributes":[{"entity":"诸葛亮","attribute":"孔明","value":"字"}]}`,
		"no JSON":          "(诸葛亮:人物, 籍贯, 琅邪阳都:地点)\n(诸葛亮, has_attr, 字, 孔明)",
	} {
		out, _, _ := run(t, text, "lzh", reply, Options{})
		if a := findAttr(out.Result, "诸葛亮", "字"); a == nil || a.Value != "孔明" || a.At.Start != 4 {
			t.Errorf("%s: attributes %+v", name, out.Result.Attributes)
		}
	}
	out, _, _ := run(t, text, "lzh", `{"entities":[{"text":"诸葛亮","type":"人物"},{"text":"琅邪阳都","type":"地点"}],
"attributes":[{"entity":"诸葛亮","attribute":"籍贯","value":"琅邪阳都"},{"entity":"诸葛亮","attribute":"小字","value":"阿亮"},
{"entity":"诸葛亮","attribute":"号","value":"卧龙"},{"entity":"诸葛亮","attribute":"享年","value":"五十四"}]}`, Options{})
	res := out.Result
	if findTriple(res, "诸葛亮", "籍贯", "琅邪阳都") == nil {
		t.Errorf("an attribute named as a relation is its triple: %+v", res.Triples)
	}
	if a := findAttr(res, "诸葛亮", "小名"); a == nil || a.Value != "阿亮" {
		t.Errorf("小字 is the schema's 小名: %+v", res.Attributes)
	}
	if a := findAttr(res, "诸葛亮", "享年"); a == nil || findTriple(res, "诸葛亮", "别称", "五十四") != nil {
		t.Errorf("an age is an attribute and no alias: %+v %+v", res.Attributes, res.Triples)
	}
	if tr := findTriple(res, "诸葛亮", "别称", "卧龙"); tr == nil || tr.AliasKind != "号" {
		t.Errorf("a 号 is an alias of its kind: %+v", res.Triples)
	}
}

// English and Vietnamese texts read the general schema's attributes.
func TestAttributesInTheGeneralSchema(t *testing.T) {
	text := "Trần Hưng Đạo, tên thật là Trần Quốc Tuấn, là con của Trần Liễu."
	out, _, _ := run(t, text, "vi", `{"entities":[{"text":"Trần Hưng Đạo","type":"person"},{"text":"Trần Liễu","type":"person"}],
"triples":[{"head":"Trần Liễu","relation":"parent_of","tail":"Trần Hưng Đạo"}],
"attributes":[{"entity":"Trần Hưng Đạo","attribute":"tên thật","value":"Trần Quốc Tuấn"}]}`, Options{})
	a := findAttr(out.Result, "Trần Hưng Đạo", "birth_name")
	if a == nil || a.Value != "Trần Quốc Tuấn" {
		t.Fatalf("attributes %+v", out.Result.Attributes)
	}
	if tr := findTriple(out.Result, "Trần Hưng Đạo", "alias_of", "Trần Quốc Tuấn"); tr == nil || tr.AliasKind != "birth_name" {
		t.Fatalf("triples %+v", out.Result.Triples)
	}
}

// The prompt asks for the schema's attributes, and the reply schema
// bounds them.
func TestPromptAsksForAttributes(t *testing.T) {
	_, _, f := run(t, lzhText, "lzh", goodReply, Options{})
	req := f.requests()[0]
	sys := req.Messages[0].Content
	if !strings.Contains(sys, "attributes") || !strings.Contains(sys, "字、号、谥号") {
		t.Fatalf("the prompt does not ask for attributes:\n%s", sys)
	}
	props := req.Schema.Schema["properties"].(map[string]any)
	if _, ok := props["attributes"]; !ok {
		t.Fatalf("the reply schema has no attributes: %v", props)
	}
}
