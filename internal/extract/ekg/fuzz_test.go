package ekg

import (
	"context"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

func FuzzReply(f *testing.F) {
	f.Add(`{"entities": [{"text": "关羽", "type": "人物"}]}`, "关羽守荆州")
	f.Add(`[{"text": "a\u0000", "type": "人物"}, {"text": "\xff", "type": "地点"}]`, "a\x00\xffb")
	f.Add(`{"entities": [{"text": "亮", "type": "人物"}, {"text": "诸葛亮", "type": "人物"}`, "诸葛亮亮亮")
	f.Fuzz(func(t *testing.T, content, text string) {
		if len(content) > 1<<14 || len(text) > 1<<14 {
			return
		}
		res, err := New(nil, &fakeLLM{Replies: []string{content}}).Extract(context.Background(), extract.Input{Text: text, Lang: "lzh", Schema: zhSchema})
		if err != nil {
			// Refused whole: nothing comes out, and the refusal is the
			// reply's, not the text's.
			if _, ok := parseReply(content); ok || len(res.Entities)+len(res.Triples) != 0 {
				t.Fatalf("err %v with a readable reply, or with %+v", err, res)
			}
			return
		}
		checkOffsets(t, text, res)
	})
}
