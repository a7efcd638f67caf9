package shipped

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/ner"
)

// The embedded model is what the trainer writes from the committed
// annotations: anyone can rebuild it, and a change to the annotations or
// the features that is not followed by retraining fails here.
func TestModelIsReproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("trains the model")
	}
	corpus := filepath.Join("..", "..", "..", "..", "shared", "data", "first-four-histories")
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("the First Four Histories are not at %s: %v", corpus, err)
	}
	tg, what, err := ner.Recipe{Annotations: filepath.Join("..", "annotations"), Corpus: corpus}.Train()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tg.Save(&buf, what); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), Bytes()) {
		t.Fatalf("the embedded model (%d bytes) is not what the trainer writes (%d bytes): run go run ./internal/ner/train", len(Bytes()), buf.Len())
	}
}

func TestModelLoads(t *testing.T) {
	r, err := Recogniser()
	if err != nil {
		t.Fatal(err)
	}
	if len(Bytes()) > 20<<20 {
		t.Errorf("the embedded model is %d bytes, over 20 MB", len(Bytes()))
	}
	// A sentence the rules alone read wrong: the given name 策 standing
	// alone, known from the chapter's 孙策.
	got := r.Tagger.TagHinted([]rune("策自领会稽太守，复以吴景为丹杨太守。"), nil, ner.Names{"策": "孙策"})
	want := map[string]string{"策": "人物", "会稽太守": "职官", "吴景": "人物", "丹杨太守": "职官"}
	rs := []rune("策自领会稽太守，复以吴景为丹杨太守。")
	for _, s := range got {
		if want[string(rs[s.Start:s.End])] == s.Type {
			delete(want, string(rs[s.Start:s.End]))
		}
	}
	if len(want) > 0 {
		t.Errorf("missed %v in %v", want, got)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, _, err := ner.Load(bytes.NewReader(Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTagChapter tags a long chapter sentence by sentence, with the
// rules' hints read over the chapter, as indexing does.
func BenchmarkTagChapter(b *testing.B) {
	path := filepath.Join("..", "..", "..", "..", "shared", "data", "first-four-histories", "三国志", "蜀书", "诸葛亮传", "text.txt")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Skipf("no chapter to tag: %v", err)
	}
	r, err := Recogniser()
	if err != nil {
		b.Fatal(err)
	}
	doc := string(data)
	hints, names := ner.DocumentHints(doc, "诸葛亮传")
	pieces := ner.Split(doc)
	rs := []rune(doc)
	b.SetBytes(int64(len(rs)))
	for b.Loop() {
		for _, p := range pieces {
			r.Tagger.TagHinted(rs[p.Start:p.End], ner.Within(hints, p.Start, p.End), names)
		}
	}
}
