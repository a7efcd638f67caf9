package shipped

import (
	"bytes"
	"testing"

	"github.com/annals-project/annals/internal/relclass"
	"github.com/annals-project/annals/internal/schema"
)

// The embedded model is what the trainer writes from the committed
// annotations: a change to them or to the features that is not followed
// by retraining fails here.
func TestModelIsReproducible(t *testing.T) {
	c, what, err := relclass.TrainShipped("../../ner/annotations")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := c.Save(&buf, what); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), Bytes()) {
		t.Fatalf("the embedded model (%d bytes) is not what the trainer writes (%d bytes): run go run ./internal/relclass/train", len(Bytes()), buf.Len())
	}
}

func TestModelReadsAnOfficeHeld(t *testing.T) {
	r, err := Relater()
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune("以琬为尚书令，总统国事。")
	got := r.Classifier.Relate(rs, []relclass.Name{{Start: 1, End: 2, Type: "人物"}, {Start: 3, End: 6, Type: "职官"}})
	if len(got) != 1 || got[0] != (relclass.Link{Head: 0, Tail: 1, Type: "任官"}) {
		t.Errorf("以琬为尚书令: %v, want 琬 任官 尚书令", got)
	}
}

func BenchmarkLoad(b *testing.B) {
	sch := schema.MustLoad(schema.ZhHistory)
	for b.Loop() {
		if _, _, err := relclass.Load(bytes.NewReader(model), sch); err != nil {
			b.Fatal(err)
		}
	}
}
