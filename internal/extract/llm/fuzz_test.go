package llmextract

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/schema"
)

// FuzzReply feeds arbitrary replies (and chunks) through parsing and
// validation: nothing panics, and whatever survives has valid offsets, text
// equal to its span, schema types and relations, and evidence covering
// both ends.
func FuzzReply(f *testing.F) {
	f.Add(lzhText, goodReply, false)
	f.Add(lzhText, goodReply[:len(goodReply)/2], false)
	f.Add(lzhText, "(曹操:人物,别称,孟德:人物)（操，任官，丞相）", false)
	f.Add(lzhText, `[["曹操","别称","孟德"],{"head":"献帝","relation":"下级","tail":"操"}]`, false)
	f.Add(lzhText, `{"entities":["曹操:人物",["丞相","职官"]],"triples":["(曹操,任官,丞相)"]}`, false)
	f.Add("獻帝以操為丞相。操子丕。", `{"entities":[{"text":"献帝","type":"人物"}],"triples":[{"head":"獻帝","relation":"下級","tail":"操","evidence":"獻帝以操為丞相"}]}`, false)
	f.Add("Wu Zetian was born in Wenshui. Later Wu ruled.", `{"entities":[{"text":"Wu","type":"person","name":"Wu Zetian"}],"triples":[{"head":"Wu","relation":"born_in","tail":"Wenshui"}],"new_types":[{"kind":"relation","name":"ruled","confidence":"90%"}]}`, true)
	f.Add("a\u0300b", "{\"entities\":[{\"text\":\"\u00e0\",\"type\":\"person\"}],\"triples\":[{\"head\":\"\u00e0\",\"relation\":\"related_to\",\"tail\":\"b\"}]}", true)
	f.Add(lzhText, `{"entities":[{"text":"曹操","type":"人物"}],"triples":[],"attributes":[{"entity":"曹操","attribute":"字","value":"孟德","evidence":"曹操字孟德"},42,["曹操","字"]]}`, false)
	f.Add(lzhText, `{"entities":["曹操:人物"],"triples":[{"head":"曹操","relation":"has_attr","tail":"字:孟德"},{"head":"操","relation":"字","tail":"孟德"}],"attributes":{"曹操":{"号":"孟"}}}`, false)
	f.Add("Ibn Battuta (1304–1369) was born in Tangier.", `{"entities":[{"text":"Ibn Battuta","type":"person"}],"attributes":[{"entity":"Ibn Battuta","lifespan":"1304–1369"},{"entity":"Ibn Battuta","attribute":"born_in","value":"Tangier"}]}`, true)
	f.Add(lzhText, "(曹操:人物, 籍贯, 沛国谯:地点)\n(曹操, has_attr, 字, 孟德)", false)
	f.Fuzz(func(t *testing.T, text, content string, latin bool) {
		if !utf8.ValidString(text) || len(text) > 2000 || strings.TrimSpace(text) == "" {
			t.Skip()
		}
		lang, sch := "lzh", schema.MustLoad(schema.ZhHistory)
		if latin {
			lang, sch = "en", schema.MustLoad(schema.General)
		}
		g := schema.NewGrowth(schema.GrowthOptions{})
		x := New(newFake(content), Options{AllowGrowth: true, Growth: g, Stats: &Stats{}})
		doc := extract.NewDocContext("d", "", nil)
		out, err := x.Run(context.Background(), extract.Input{Text: text, Lang: lang, Schema: sch, Doc: doc})
		var re *ReplyError
		if errors.As(err, &re) {
			// A reply refused whole yields nothing at all.
			if out.Failure != re.Reason || len(out.Result.Entities)+len(out.Result.Triples)+len(out.Result.Attributes)+len(out.Proposals) != 0 {
				t.Fatalf("refused reply gave %+v", out)
			}
			if checkReply(content) == nil {
				t.Fatalf("Run refused a reply that Validate accepts: %v", err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if checkReply(content) != nil {
			t.Fatalf("Run used a reply that Validate refuses: %v", checkReply(content))
		}
		checkResult(t, text, sch, out.Result)
		for _, p := range out.Proposals {
			if p.Confidence < 0 || p.Confidence > 1 || p.Name == "" {
				t.Fatalf("proposal %+v", p)
			}
			if p.Evidence != "" && !strings.Contains(text, p.Evidence) {
				t.Fatalf("proposal evidence %q not in the text", p.Evidence)
			}
		}
		_ = g.Apply(sch)
	})
}
