package regex

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/annals-project/annals/internal/extract"
)

// patternFor gives the named groups of a regex types and relations the
// schema accepts, so that the checks after compiling are reached.
func patternFor(rx string) Pattern {
	p := Pattern{Regex: rx, Groups: map[string]string{}}
	re, err := regexp.Compile(rx)
	if err != nil {
		p.Groups["g"] = "人物"
		return p
	}
	types := []string{"人物", "人物", "地点", "职官", "爵位", "时间"}
	var names []string
	for _, n := range re.SubexpNames() {
		if n != "" {
			if _, dup := p.Groups[n]; !dup {
				p.Groups[n] = types[len(names)%len(types)]
				names = append(names, n)
			}
		}
	}
	rels := map[string]string{"人物": "同族", "地点": "籍贯", "职官": "任官", "爵位": "封爵", "时间": "出生时间"}
	for i := 1; i < len(names); i++ {
		p.Relations = append(p.Relations, Edge{Head: names[0], Relation: rels[p.Groups[names[i]]], Tail: names[i], AliasKind: "字"})
	}
	if len(names) > 1 {
		p.Relations = append(p.Relations, Edge{Head: names[0], Relation: "别称", Tail: names[1], AliasKind: "字"})
	}
	return p
}

func FuzzExtract(f *testing.F) {
	f.Add(bioPattern.Regex, entry1)
	f.Add(`(?P<a>\p{Han}{2,3})，字(?P<b>\p{Han}{1,2})`, "Vol. 1 𠀋。诸葛亮，字孔明，琅邪阳都人也。")
	f.Add(`(?P<a>.*)字(?P<b>.*)`, "甲字乙\n丙字丁")
	f.Add(`(?P<a>\w+) styled (?P<b>\w+)`, "Zhuge Liang styled Kongming, of Langya.")
	f.Add(`(?P<a>[\x00-\xff]+)拜(?P<b>.)`, "\xff\xfe拜\xe4\xb8")
	f.Add(`(?P<a>)(?P<b>)x`, "xxxx")
	f.Add(`(?i)(?P<a>\S+)\s*,\s*(?P<b>\S+)`, "  A , B ,C  ")
	f.Add(`((((`, "字")
	f.Fuzz(func(t *testing.T, rx, text string) {
		if len(rx) > 4*maxRegexBytes || len(text) > 1<<14 {
			return
		}
		p := patternFor(rx)
		in := zhIn(text)
		x := New(&fakeLLM{Last: reply(p)}, nil, Options{NoSeeds: true})
		res, err := x.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, text, res)
		st := x.Stats()
		if st.Calls > 2 || st.Learned > 1 || (st.Learned == 1) != (st.Calls > 0 && st.Fallbacks == 0) {
			t.Fatalf("stats %+v", st)
		}
		// Whatever the offline path keeps must also read the text safely.
		res, err = x.Extract(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, text, res)

		// Below the guards: apply any regex that compiles, broad or not.
		re, err := regexp.Compile(rx)
		if err != nil {
			return
		}
		b, fl := bind(re, p, zhSchema)
		if fl != nil {
			return
		}
		r, fl := b.apply(newChunk(in), limits{maxRunes: 1 << 20, maxCoverage: 1})
		if fl == nil {
			checkResult(t, text, r)
		}
	})
}

func FuzzReply(f *testing.F) {
	f.Add(reply(bioPattern), entry1)
	f.Add("```json\n{\"regex\": \"(?P<a>x)\"}\n```", "x")
	f.Add(`{"regex": "(?P<a>\\p{Han})字", "groups": {"a": "人物"}, "relations": [{"head": "a", "relation": "别称", "tail": "a"}]}{`, "甲字")
	f.Add(`[{"regex": 1}] {"regex": "(?P<a>[a-z]+) (?P<b>[a-z]+) of", "groups": {"a": "人物", "b": "地点"}, "relations": [{"head": "a", "relation": "籍贯", "tail": "b"}]}`, "liu bei of zhuo")
	f.Fuzz(func(t *testing.T, content, text string) {
		if len(content) > 1<<14 || len(text) > 1<<14 {
			return
		}
		x := New(&fakeLLM{Last: content}, nil, Options{NoSeeds: true, Attempts: 1})
		res, err := x.Extract(context.Background(), extract.Input{Text: text, Lang: "lzh"})
		if err != nil {
			t.Fatal(err)
		}
		checkResult(t, text, res)
		st := x.Stats()
		if sum := st.Learned + st.CompileFailures + st.Rejected + st.NoMatch; st.Calls > 0 && sum != 1 {
			t.Fatal(fmt.Sprintf("every call ends one way: %+v", st))
		}
	})
}
