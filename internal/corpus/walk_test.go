package corpus

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/text"
)

// pngBytes is the start of a PNG file: signature and an IHDR chunk.
var pngBytes = []byte{
	0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a,
	0x00, 0x00, 0x00, 0x0d, 'I', 'H', 'D', 'R',
	0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x08, 0x06, 0x00, 0x00, 0x00,
	0x1f, 0xf3, 0xff, 0x61, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
}

// garbage is not UTF-8, and has an odd length for UTF-16 and bytes that lead
// nothing in GB18030 or Big5.
var garbage = []byte{0x80, 0xff, 0x80, 0xff, 0x80, 0x00, 0xff}

func writeFile(t *testing.T, root, rel string, data []byte) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func collect(t *testing.T, root string, opts WalkOptions) ([]Doc, []Warning) {
	t.Helper()
	var docs []Doc
	warns, err := WalkWith(context.Background(), root, opts, func(d Doc) error {
		docs = append(docs, d)
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	return docs, warns
}

const recordsJSONL = `{"text": "王允之，河东人也。", "source": "杂史", "title": "列传", "chapter": "王允之", "extra": [1, 2]}
{"text": "李弘度，陈留人也。"}

{"text": "缺一括号。"
{"title": "无文"}
{"text": "   ", "title": "空文"}
{"text": "赵叔平，南阳人也。", "title": "赵叔平传", "source": 7}
42
`

func buildTree(t *testing.T) string {
	root := t.TempDir()
	writeFile(t, root, "三国志/蜀书/诸葛亮传/text.txt", []byte("亮字孔明，琅邪人也。\n"))
	writeFile(t, root, "三国志/魏书/武帝纪/text.txt", []byte("太祖，沛国谯人也。\n"))
	writeFile(t, root, "三国志/序.txt", []byte("叙三国之事。\n"))
	writeFile(t, root, "notes.MD", []byte("# 札记\n\n读史有感。\n"))
	writeFile(t, root, "guide.markdown", []byte("Read slowly.\n"))
	writeFile(t, root, "records.jsonl", []byte(recordsJSONL))
	writeFile(t, root, "list.json", []byte(`[{"text": "甲文。", "chapter": "甲"}, {"text": "乙文。"}, "not an object"]`))
	writeFile(t, root, "one.json", []byte("{\n  \"text\": \"单篇。\",\n  \"source\": \"某书\"\n}\n"))
	writeFile(t, root, "broken.json", []byte("{\n  \"text\": \"未完\n"))
	writeFile(t, root, "cover.txt", pngBytes)
	writeFile(t, root, "empty.txt", nil)
	writeFile(t, root, "garbage.txt", garbage)
	writeFile(t, root, "big.txt", []byte(strings.Repeat("大", 400)))
	writeFile(t, root, "image.png", pngBytes)
	writeFile(t, root, "README", []byte("not read in a folder walk"))
	writeFile(t, root, ".hidden/secret.txt", []byte("hidden"))
	writeFile(t, root, "卷/.draft.txt", []byte("hidden"))
	return root
}

func TestWalkTree(t *testing.T) {
	root := buildTree(t)
	loop := false
	if err := os.Symlink(root, filepath.Join(root, "loop")); err == nil {
		loop = true
	}
	docs, warns := collect(t, root, WalkOptions{MaxBytes: 1000})

	type want struct {
		key, title, format, text string
		section                  []string
	}
	wants := []want{
		{"guide.markdown", "guide", "md", "Read slowly.\n", []string{"guide"}},
		{"list.json#1", "甲", "json", "甲文。", []string{"甲"}},
		{"list.json#2", "list", "json", "乙文。", []string{"list"}},
		{"notes.MD", "notes", "md", "# 札记\n\n读史有感。\n", []string{"notes"}},
		{"one.json#1", "某书", "json", "单篇。", []string{"某书"}},
		{"records.jsonl#1", "王允之", "json", "王允之，河东人也。", []string{"杂史", "列传", "王允之"}},
		{"records.jsonl#2", "records", "json", "李弘度，陈留人也。", []string{"records"}},
		{"records.jsonl#6", "赵叔平传", "json", "赵叔平，南阳人也。", []string{"赵叔平传"}},
		{"三国志/序.txt", "序", "txt", "叙三国之事。\n", []string{"三国志", "序"}},
		{"三国志/蜀书/诸葛亮传/text.txt", "诸葛亮传", "txt", "亮字孔明，琅邪人也。\n", []string{"三国志", "蜀书", "诸葛亮传"}},
		{"三国志/魏书/武帝纪/text.txt", "武帝纪", "txt", "太祖，沛国谯人也。\n", []string{"三国志", "魏书", "武帝纪"}},
	}
	var keys []string
	for _, d := range docs {
		keys = append(keys, d.Key)
	}
	var wantKeys []string
	for _, w := range wants {
		wantKeys = append(wantKeys, w.key)
	}
	if !slices.Equal(keys, wantKeys) {
		t.Fatalf("keys\n got %q\nwant %q", keys, wantKeys)
	}
	for i, w := range wants {
		d := docs[i]
		if d.Title != w.title || d.Format != w.format || d.Text != w.text || !slices.Equal(d.Section, w.section) {
			t.Errorf("%s: got title %q format %q section %q text %q", w.key, d.Title, d.Format, d.Section, d.Text)
		}
		file := filepath.Join(root, filepath.FromSlash(strings.SplitN(w.key, "#", 2)[0]))
		info, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if d.Size != info.Size() || !d.ModTime.Equal(info.ModTime()) || d.Encoding == "" {
			t.Errorf("%s: size %d mod %v encoding %q; file has %d, %v", w.key, d.Size, d.ModTime, d.Encoding, info.Size(), info.ModTime())
		}
	}

	got := map[string]error{}
	for _, w := range warns {
		rel, err := filepath.Rel(root, w.Path)
		if err != nil {
			t.Fatal(err)
		}
		got[filepath.ToSlash(rel)] = w.Err
		if !strings.HasPrefix(w.Error(), w.Path+": skipped: ") {
			t.Errorf("warning text %q", w.Error())
		}
	}
	expect := map[string]error{
		"broken.json":        ErrMalformed,
		"list.json#3":        ErrNotAnObject,
		"records.jsonl#3":    ErrMalformed,
		"records.jsonl#4":    ErrNoText,
		"records.jsonl#5":    ErrNoText,
		"records.jsonl#7":    ErrNotAnObject,
		"big.txt":            ErrTooLarge,
		"cover.txt":          text.ErrBinary,
		"empty.txt":          text.ErrEmpty,
		"garbage.txt":        nil, // whatever Decode says
		"image.png":          nil,
		"README":             nil,
		".hidden/secret.txt": nil,
	}
	if _, _, err := text.Decode(garbage); err == nil {
		delete(expect, "garbage.txt") // a decoder that reads it turns it into a document
	}
	if loop {
		expect["loop"] = ErrSymlinkLoop
	}
	for path, reason := range expect {
		err, ok := got[path]
		switch {
		case path == "image.png" || path == "README" || strings.HasPrefix(path, "."):
			if ok {
				t.Errorf("%s: warned %v, want it ignored", path, err)
			}
		case !ok:
			t.Errorf("%s: no warning", path)
		case path == "cover.txt":
			if !errors.Is(err, text.ErrBinary) && !errors.Is(err, text.ErrUndecodable) {
				t.Errorf("%s: %v, want a binary or undecodable file", path, err)
			}
		case path == "garbage.txt":
			if !errors.Is(err, text.ErrBinary) && !errors.Is(err, text.ErrUndecodable) {
				t.Errorf("%s: %v, want Decode's error", path, err)
			}
		case !errors.Is(err, reason):
			t.Errorf("%s: %v, want %v", path, err, reason)
		}
		delete(got, path)
	}
	for path, err := range got {
		t.Errorf("unexpected warning %s: %v", path, err)
	}
}

func TestWalkDeterministic(t *testing.T) {
	root := buildTree(t)
	a, wa := collect(t, root, WalkOptions{})
	b, wb := collect(t, root, WalkOptions{})
	if len(a) != len(b) || len(wa) != len(wb) {
		t.Fatal("two walks differ")
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Text != b[i].Text {
			t.Fatalf("doc %d differs: %q vs %q", i, a[i].Key, b[i].Key)
		}
	}
	for i := range wa {
		if wa[i].Error() != wb[i].Error() {
			t.Fatalf("warning %d differs", i)
		}
	}
}

func TestWalkSingleFile(t *testing.T) {
	root := buildTree(t)
	cases := []struct {
		rel, key, format string
		section          []string
	}{
		{"三国志/蜀书/诸葛亮传/text.txt", "text.txt", "txt", []string{"诸葛亮传"}},
		{"notes.MD", "notes.MD", "md", []string{"notes"}},
		{"README", "README", "txt", []string{"README"}},
		{"records.jsonl", "records.jsonl#1", "json", []string{"杂史", "列传", "王允之"}},
	}
	for _, tc := range cases {
		docs, _, err := ReadFile(context.Background(), filepath.Join(root, filepath.FromSlash(tc.rel)))
		if err != nil {
			t.Fatalf("%s: %v", tc.rel, err)
		}
		if len(docs) == 0 {
			t.Fatalf("%s: no documents", tc.rel)
		}
		d := docs[0]
		if d.Key != tc.key || d.Format != tc.format || !slices.Equal(d.Section, tc.section) {
			t.Errorf("%s: key %q format %q section %q", tc.rel, d.Key, d.Format, d.Section)
		}
	}
	// A text.txt at the top of a walked folder is named after the folder.
	dir := filepath.Join(t.TempDir(), "汉书")
	writeFile(t, dir, "text.txt", []byte("汉兴。\n"))
	docs, _, err := ReadFile(context.Background(), dir)
	if err != nil || len(docs) != 1 || !slices.Equal(docs[0].Section, []string{"汉书"}) || docs[0].Title != "汉书" {
		t.Errorf("top text.txt: %+v, %v", docs, err)
	}
	// Problems with a file given directly are warnings too.
	_, warns, err := ReadFile(context.Background(), filepath.Join(root, "empty.txt"))
	if err != nil || len(warns) != 1 || !errors.Is(warns[0], text.ErrEmpty) {
		t.Errorf("empty file: %v, %v", warns, err)
	}
}

func TestWalkErrors(t *testing.T) {
	root := buildTree(t)
	if _, err := Walk(context.Background(), filepath.Join(root, "missing"), func(Doc) error { return nil }); err == nil {
		t.Error("missing root: no error")
	}

	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Walk(ctx, root, func(Doc) error {
		n++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || n != 1 {
		t.Errorf("cancelled walk: %d docs, %v", n, err)
	}

	boom := errors.New("boom")
	_, err = Walk(context.Background(), root, func(Doc) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("callback error: %v", err)
	}

	n = 0
	_, err = Walk(context.Background(), root, func(Doc) error {
		n++
		if n == 3 {
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil || n != 3 {
		t.Errorf("SkipAll: %d docs, %v", n, err)
	}
}

func TestWalkDefaultLimit(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "a.txt", []byte("小文。"))
	docs, warns := collect(t, root, WalkOptions{})
	if len(docs) != 1 || len(warns) != 0 {
		t.Errorf("default options: %d docs, %v", len(docs), warns)
	}
	docs, warns = collect(t, root, WalkOptions{MaxBytes: 3})
	if len(docs) != 0 || len(warns) != 1 || !errors.Is(warns[0], ErrTooLarge) {
		t.Errorf("over the limit: %d docs, %v", len(docs), warns)
	}
}

func TestParseRecords(t *testing.T) {
	cases := []struct {
		name, in string
		texts    []string
		errs     []int // record numbers with errors; 0 is the whole file
	}{
		{"object", `{"text":"一"}`, []string{"一"}, nil},
		{"bom", "\uFEFF" + `{"text":"一"}`, []string{"一"}, nil},
		{"array", `[{"text":"一"},{"text":"二"}]`, []string{"一", "二"}, nil},
		{"array with a bad record", `[{"text":"一"},{"text":2},{"text":"三"}]`, []string{"一", "三"}, []int{2}},
		{"broken array", `[{"text":"一"},{"text":"二"`, []string{"一"}, []int{0}},
		{"data after array", `[{"text":"一"}] x`, []string{"一"}, []int{0}},
		{"lines", "{\"text\":\"一\"}\n\n{\"text\":\"二\"}\n", []string{"一", "二"}, nil},
		{"concatenated", "{\n\"text\":\"一\"\n}\n{\n\"text\":\"二\"\n}", []string{"一", "二"}, nil},
		{"bad first line", "{\"text\":\n{\"text\":\"二\"}\n{\"text\":\"三\"}\n", []string{"二", "三"}, []int{1}},
		{"null text", `{"text":null}`, nil, []int{1}},
		{"not json", "just some words\nand more words\n", nil, []int{0}},
		{"empty", "  \n", nil, []int{0}},
		{"numbers", "1\n2\n", nil, []int{1, 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, errs := parseRecords(tc.in)
			var texts []string
			for _, r := range recs {
				texts = append(texts, r.Text)
			}
			var ns []int
			for _, e := range errs {
				ns = append(ns, e.N)
			}
			if !slices.Equal(texts, tc.texts) || !slices.Equal(ns, tc.errs) {
				t.Errorf("texts %q errors %v (%v), want %q %v", texts, ns, errs, tc.texts, tc.errs)
			}
		})
	}
}

func TestWalkWithinKeepsLinksInside(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "sub"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, "a.txt"), "甲文。")
	write(filepath.Join(root, "sub", "c.txt"), "丙文。")
	write(filepath.Join(outside, "b.txt"), "乙文。")
	links := map[string]string{
		"in.txt":   filepath.Join(root, "sub", "c.txt"),
		"out.txt":  filepath.Join(outside, "b.txt"),
		"outdir":   outside,
		"rel.txt":  "../outside/b.txt",
		"dead.txt": filepath.Join(base, "nowhere.txt"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skip("symbolic links unavailable:", err)
		}
	}
	var read []string
	warns, err := WalkWith(context.Background(), root, WalkOptions{Within: []string{root}}, func(d Doc) error {
		read = append(read, d.Text)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range read {
		if strings.Contains(s, "乙") {
			t.Errorf("read a file outside the allowed folder: %v", read)
		}
	}
	if len(read) != 3 { // a.txt, in.txt, sub/c.txt
		t.Errorf("read %d documents, want 3: %v", len(read), read)
	}
	outsideWarns := 0
	for _, w := range warns {
		if errors.Is(w, ErrOutside) {
			outsideWarns++
		}
	}
	if outsideWarns != 3 || len(warns) != 4 { // and the dead link
		t.Errorf("%d warnings of links leading outside, want 3 (and 4 in all): %v", outsideWarns, warns)
	}
	// Without Within, the same walk follows the links out.
	read = nil
	if _, err := Walk(context.Background(), root, func(d Doc) error { read = append(read, d.Text); return nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(read, func(s string) bool { return strings.Contains(s, "乙") }) {
		t.Errorf("an unconfined walk did not follow the links: %v", read)
	}
}

func TestInside(t *testing.T) {
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/srv/texts", true}, {"/srv/texts/a/b.txt", true}, {"/srv/texts2", false},
		{"/srv", false}, {"/srv/texts/../other", false}, {"/etc/passwd", false},
	} {
		if got := Inside(filepath.Clean(c.path), []string{"/srv/texts"}); got != c.want {
			t.Errorf("Inside(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestSizeOf(t *testing.T) {
	for n, want := range map[int64]string{
		225:      "225 bytes",
		1024:     "1,024 bytes (1 KiB)",
		64 << 20: "67,108,864 bytes (64 MiB)",
		70e6:     "70,000,000 bytes (66.8 MiB)",
		3 << 30:  "3,221,225,472 bytes (3 GiB)",
	} {
		if got := sizeOf(n); got != want {
			t.Errorf("sizeOf(%d) = %q, want %q", n, got, want)
		}
	}
}

// Count counts what a walk reads without reading text files: a JSON file
// counts its records, a binary .txt counts though the walk skips it.
func TestCount(t *testing.T) {
	root := buildTree(t)
	docs, warns := collect(t, root, WalkOptions{})
	n, err := Count(context.Background(), root, WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	unreadable := 0
	for _, w := range warns {
		if !strings.Contains(w.Path, "#") && FormatOf(w.Path) != "json" && !errors.Is(w.Err, ErrTooLarge) && !errors.Is(w.Err, ErrSymlinkLoop) {
			unreadable++
		}
	}
	if n != len(docs)+unreadable {
		t.Fatalf("Count = %d; the walk read %d documents and skipped %d text files as unreadable (%v)", n, len(docs), unreadable, warns)
	}
	one := filepath.Join(t.TempDir(), "one.txt")
	os.WriteFile(one, []byte("诸葛亮"), 0o644)
	if n, err := Count(context.Background(), one, WalkOptions{}); err != nil || n != 1 {
		t.Fatalf("Count of one file = %d, %v", n, err)
	}
}
