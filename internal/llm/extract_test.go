package llm_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/llm"
)

func TestExtractJSON(t *testing.T) {
	cases := []struct {
		name, in, want string
		truncated      bool
	}{
		{"plain", `{"a": 1}`, `{"a": 1}`, false},
		{"array", ` [["诸葛亮","任官","丞相"]] `, `[["诸葛亮","任官","丞相"]]`, false},
		{"fenced", "Here you go:\n```json\n{\"name\": \"诸葛亮\", \"aliases\": [\"孔明\"]}\n```\nAnything else?",
			`{"name":"诸葛亮","aliases":["孔明"]}`, false},
		{"fence without info", "```\n[1, 2]\n```", `[1,2]`, false},
		{"think", "<think>The user wants {entities}. Let me list [them].</think>\n\n{\"entities\": [\"刘备\"]}",
			`{"entities":["刘备"]}`, false},
		{"think closed only", "reasoning about {x}…</think>{\"ok\": true}", `{"ok":true}`, false},
		{"trailing commas", `{"a": [1, 2, 3,], "b": {"c": 1,},}`, `{"a":[1,2,3],"b":{"c":1}}`, false},
		{"single quotes", `{'name': '诸葛亮', 'note': 'said "hi"', 'esc': 'it\'s'}`,
			`{"name":"诸葛亮","note":"said \"hi\"","esc":"it's"}`, false},
		{"unquoted keys and Python literals", `{name: "亮", alive: False, title: None, n: +3, x: .5}`,
			`{"name":"亮","alive":false,"title":null,"n":3,"x":0.5}`, false},
		{"prose around", `Sure! Per source [1], the result is {"a": {"b": [1, 2]}} — hope this helps {really}.`,
			`{"a":{"b":[1,2]}}`, false},
		{"comments", "{\n  \"a\": 1, // the first\n  /* gone */ \"b\": 2\n}", `{"a":1,"b":2}`, false},
		{"raw newline in string", "{\"t\": \"line one\nline two\"}", `{"t":"line one\nline two"}`, false},
		{"missing comma", `{"a": 1 "b": 2}`, `{"a":1,"b":2}`, false},
		{"surrogate pair", `{"e": "\ud83d\ude00", 'lone': '\ud800'}`, `{"e":"😀","lone":"` + "\uFFFD" + `"}`, false},
		{"truncated object", `{"entities": [{"name": "诸葛亮", "role": "丞相"}, {"name": "刘`,
			`{"entities":[{"name":"诸葛亮","role":"丞相"},{"name":"刘"}]}`, true},
		{"truncated after key", `{"a": 1, "b": `, `{"a":1}`, true},
		{"truncated inside key", `{"a": 1, "bb`, `{"a":1}`, true},
		{"truncated after comma", `[[1, 2], [3, 4],`, `[[1,2],[3,4]]`, true},
		{"truncated fence", "```json\n{\"a\": [1, 2", `{"a":[1,2]}`, true},
		{"truncated number", `{"a": 12.`, `{"a":12}`, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := llm.ExtractJSON(c.in)
			if c.truncated != errors.Is(err, llm.ErrTruncated) || (err != nil && !c.truncated) {
				t.Fatalf("err = %v, truncated want %v", err, c.truncated)
			}
			if !json.Valid(got) {
				t.Fatalf("invalid JSON %s", got)
			}
			if compact(t, got) != compact(t, []byte(c.want)) {
				t.Fatalf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestExtractJSONNothing(t *testing.T) {
	for _, in := range []string{"", "no JSON here", "the answer is 42", "<think>still thinking about {"} {
		got, err := llm.ExtractJSON(in)
		if got != nil || !errors.Is(err, llm.ErrNoJSON) {
			t.Errorf("%q: %s, %v", in, got, err)
		}
	}
	// A reply that ends inside its reasoning is both.
	if _, err := llm.ExtractJSON("<think>{\"draft\": 1}"); !errors.Is(err, llm.ErrTruncated) || !errors.Is(err, llm.ErrNoJSON) {
		t.Errorf("unclosed think: err = %v", err)
	}
}

func TestParseTuples(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"parens", "(诸葛亮, 任官, 丞相)\n(刘备，称帝，蜀汉)", "[[诸葛亮 任官 丞相] [刘备 称帝 蜀汉]]"},
		{"several per line, nested parens", "(曹操, 封, 魏王（216）) （孙权, 称帝, 吴）", "[[曹操 封 魏王（216）] [孙权 称帝 吴]]"},
		{"pipes", "诸葛亮 | 任官 | 丞相\n刘备｜称帝｜蜀汉", "[[诸葛亮 任官 丞相] [刘备 称帝 蜀汉]]"},
		{"markdown table", "| 主体 | 关系 | 客体 |\n|:---|---|---:|\n| 诸葛亮 | 任官 | 丞相 |\n", "[[诸葛亮 任官 丞相]]"},
		{"list markers and quotes", "1. (\"诸葛亮\", '任官', “丞相”)\n- 「刘备」 | 称帝 | 蜀汉\n* (a, b)", "[[诸葛亮 任官 丞相] [刘备 称帝 蜀汉] [a b]]"},
		{"pipe field with comma in parens", "曹操 | 封 | 魏王（216, 建安二十一年）", "[[曹操 封 魏王（216, 建安二十一年）]]"},
		{"json arrays", `Result: [["诸葛亮","任官","丞相"], ["刘备", "称帝", "蜀汉"]]`, "[[诸葛亮 任官 丞相] [刘备 称帝 蜀汉]]"},
		{"json objects in order", `{"triples": [{"s": "诸葛亮", "r": "任官", "o": "丞相", "year": 221}]}`, "[[诸葛亮 任官 丞相 221]]"},
		{"json lines", "[\"诸葛亮\", \"任官\", \"丞相\"]\n[\"刘备\", \"称帝\", null]", "[[诸葛亮 任官 丞相] [刘备 称帝]]"},
		{"truncated json drops short row", `[["诸葛亮","任官","丞相"],["刘备","称`, "[[诸葛亮 任官 丞相]]"},
		{"truncated paren line", "(诸葛亮, 任官, 丞相)\n(刘备, 称帝", "[[诸葛亮 任官 丞相] [刘备 称帝]]"},
		{"think and prose", "<think>(x, y, z)?</think>Triples:\n(诸葛亮, 任官, 丞相)\nDone.", "[[诸葛亮 任官 丞相]]"},
		{"single field dropped", "(诸葛亮)\n(a, , )", "[]"},
		{"nothing", "no tuples here", "[]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := llm.ParseTuples(c.in)
			if s := fmt.Sprint(got); s != c.want && !(c.want == "[]" && len(got) == 0) {
				t.Fatalf("got %q, want %s", got, c.want)
			}
		})
	}
}

func FuzzExtractJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": 1}`, "```json\n[1, 2,]\n```", "<think>x</think>{'a': True}", `{"a": [1, {"b": "c`,
		`{"a" 1 "b" : , ]`, `[[[[`, `}}]]{{`, `{"\ud800": "\u00"}`, "{\"a\": \"\xff\xfe\"}", "/* {", `{a:b:c}`,
		`{"a": -, "b": +., "c": 0x1F, "d": 1e, "e": --1}`, "<think><think></think>{}</think>", "```",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, err := llm.ExtractJSON(s)
		if err == nil || errors.Is(err, llm.ErrTruncated) {
			if out != nil && !json.Valid(out) {
				t.Fatalf("invalid JSON %q from %q (err %v)", out, s, err)
			}
		}
		if err == nil && out == nil {
			t.Fatalf("no JSON and no error from %q", s)
		}
		if out != nil && !strings.ContainsAny(string(out[:1]), "{[") {
			t.Fatalf("%q is not an object or array", out)
		}
	})
}

func FuzzParseTuples(f *testing.F) {
	for _, s := range []string{
		"(诸葛亮, 任官, 丞相)", "诸葛亮 | 任官 | 丞相", `[["a","b"],["c"`, "|---|\n| a | b |", "((((", "（a，b）)",
		`{"t": [{"a": 1, "b": [2]}]}`, "1. \"a\" | 'b'", "\t\t", "**a** | `b`", "\"“a”\", ‘b’",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, tp := range llm.ParseTuples(s) {
			if len(tp) < 2 {
				t.Fatalf("tuple %q has fewer than 2 fields (from %q)", tp, s)
			}
		}
	})
}
