package pipeline

import (
	"context"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/kg"
)

// attrExtractor reads 诸葛亮's 字 as an alias triple of kind 字 and his 号
// as an attribute, and the same 字 again as an attribute.
type attrExtractor struct{}

func (attrExtractor) Name() string    { return "attr" }
func (attrExtractor) Version() string { return "1" }
func (attrExtractor) Extract(_ context.Context, in extract.Input) (extract.Result, error) {
	rs := []rune(in.Text)
	at := func(s string) kg.Span {
		i := strings.Index(in.Text, s)
		if i < 0 {
			return kg.Span{Start: -1, End: -1}
		}
		n := len([]rune(in.Text[:i]))
		return kg.Span{Start: n, End: n + len([]rune(s))}
	}
	zhuge, zi, hao := at("诸葛亮"), at("孔明"), at("卧龙")
	if zhuge.Start < 0 || zi.Start < 0 || hao.Start < 0 {
		return extract.Result{}, nil
	}
	sent := kg.Span{Start: 0, End: len(rs)}
	head := extract.Entity{Text: "诸葛亮", Type: "人物", Span: zhuge}
	return extract.Result{
		Entities: []extract.Entity{head},
		Triples:  []extract.Triple{{Head: head, Relation: "别称", Tail: extract.Entity{Text: "孔明", Type: "人物", Span: zi}, Evidence: sent, AliasKind: "字"}},
		Attributes: []extract.Attribute{
			{Entity: head, Name: "号", Value: "卧龙", At: hao, Evidence: sent},
			{Entity: head, Name: "字", Value: "孔明", At: zi, Evidence: sent},
		},
	}, nil
}

// Attributes come out in offsets of the original text with the value as
// written there; a name an alias triple gives a kind is an attribute once.
func TestExtractTextAttributes(t *testing.T) {
	in := "  諸葛亮字孔明，號臥龍。"
	res, _, err := ExtractText(context.Background(), in, ExtractOptions{T2S: true, Extractor: attrExtractor{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Attributes) != 2 {
		t.Fatalf("attributes %+v", res.Attributes)
	}
	rs := []rune(in)
	for _, a := range res.Attributes {
		if string(rs[a.At.Start:a.At.End]) != a.Value || string(rs[a.Entity.Start:a.Entity.End]) != "諸葛亮" ||
			a.Entity.Canonical() != "诸葛亮" || !a.Evidence.Contains(a.At) {
			t.Fatalf("attribute %+v does not point into the input", a)
		}
	}
	if res.Attributes[0].Name != "号" || res.Attributes[0].Value != "臥龍" || res.Attributes[1].Name != "字" || res.Attributes[1].Value != "孔明" {
		t.Fatalf("attributes %+v", res.Attributes)
	}
}
