package corpus

import (
	"testing"
)

func FuzzChunk(f *testing.F) {
	f.Add(bioWang+"\n"+bioLi, uint8(20), int8(5), false)
	f.Add("# 列传\n\n"+bioWang+"\n\n## 李\n"+bioLi2, uint8(9), int8(30), true)
	f.Add("卷一\n\n"+bioWang2+"\n\n第二回\n"+bioLi, uint8(1), int8(1), false)
	f.Add("a b c d e f g h i j k l m n o p", uint8(3), int8(-1), false)
	f.Add("\r\n\t　。，\n\n#\n", uint8(2), int8(0), true)
	f.Fuzz(func(t *testing.T, doc string, maxChars uint8, overlap int8, md bool) {
		format := "txt"
		if md {
			format = "md"
		}
		opts := ChunkOptions{MaxChars: int(maxChars % 64), Overlap: int(overlap)}
		chunks := Chunk(doc, format, "", opts)
		if msg := checkChunks(doc, opts, chunks); msg != "" {
			t.Fatalf("%s\nopts %+v format %s doc %q", msg, opts, format, doc)
		}
	})
}

func FuzzReadJSONL(f *testing.F) {
	f.Add(recordsJSONL)
	f.Add(`[{"text":"一"},{"text":"二"`)
	f.Add("{\n\"text\":\"一\"\n}\n{\n\"text\":\"二\"\n}")
	f.Add(`{"text":"x","source":{"a":1},"title":["t"],"chapter":null}`)
	f.Add("\uFEFF[1, {\"text\": \"\\u4e00\"}] ")
	f.Fuzz(func(t *testing.T, in string) {
		recs, errs := parseRecords(in)
		last := 0
		for _, r := range recs {
			if r.N <= last {
				t.Fatalf("record numbers out of order: %d after %d", r.N, last)
			}
			last = r.N
			if r.Text == "" {
				t.Fatalf("record %d has empty text", r.N)
			}
		}
		for _, e := range errs {
			if e.N < 0 || e.Err == nil {
				t.Fatalf("bad record error %+v", e)
			}
		}
	})
}
