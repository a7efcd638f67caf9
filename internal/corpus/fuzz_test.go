package corpus

import (
	"testing"
)

func FuzzChunk(f *testing.F) {
	f.Add(bioWang+"\n"+bioLi, uint8(20), int8(5), false, false)
	f.Add("# 列传\n\n"+bioWang+"\n\n## 李\n"+bioLi2, uint8(9), int8(30), true, false)
	f.Add("卷一\n\n"+bioWang2+"\n\n第二回\n"+bioLi, uint8(1), int8(1), false, false)
	f.Add("a b c d e f g h i j k l m n o p", uint8(3), int8(-1), false, false)
	f.Add("\r\n\t　。，\n\n#\n", uint8(2), int8(0), true, false)
	f.Add(chapter, uint8(40), int8(15), false, true)
	f.Add("# 纪\n"+annals, uint8(30), int8(10), true, true)
	f.Add(bioWang+"\n"+bioLi+"\n 二年，"+bioLi2+"\n三年春，\n元年\n评曰：", uint8(25), int8(8), false, true)
	f.Fuzz(func(t *testing.T, doc string, maxChars uint8, overlap int8, md, patterns bool) {
		format := "txt"
		if md {
			format = "md"
		}
		opts := ChunkOptions{MaxChars: int(maxChars % 64), Overlap: int(overlap)}
		chunks := Chunk(doc, format, "", opts)
		if msg := checkChunks(doc, opts, chunks); msg != "" {
			t.Fatalf("%s\nopts %+v format %s doc %q", msg, opts, format, doc)
		}
		if !patterns {
			return
		}
		c := chunkDoc(doc, format, "", patterned(opts))
		msg := checkChunks(doc, patterned(opts), c.out)
		if msg == "" {
			msg = checkUnits(doc, c.units, chunks, c.out)
		}
		if msg != "" {
			t.Fatalf("%s\nopts %+v format %s doc %q", msg, patterned(opts), format, doc)
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
