package embed

import (
	"bytes"
	"context"
	"math"
	"sync"
	"testing"
)

func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0x80, 0x3f})
	f.Add([]byte{1, 2, 3})
	f.Add(Encode([]float32{1, -2, float32(math.NaN())}))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, err := Decode(b)
		if len(b)%4 != 0 {
			if err == nil {
				t.Fatalf("%d bytes decoded", len(b))
			}
			return
		}
		if err != nil || len(v) != len(b)/4 {
			t.Fatalf("%d bytes: %d values, %v", len(b), len(v), err)
		}
		// Bits survive, NaN payloads included.
		if !bytes.Equal(Encode(v), b) {
			t.Fatal("Encode(Decode(b)) != b")
		}
	})
}

// fuzzModel is small so that each fuzz input embeds fast.
var fuzzModel = sync.OnceValues(func() (*Learned, error) {
	return Train(context.Background(), demoTexts(), Options{Dim: 16, HashedDim: 32, IDFBits: 12, MinCount: 2})
})

func FuzzEmbed(f *testing.F) {
	for _, s := range []string{"", "曹操", "子曰：学而时习之。", "Cao Cao, 155–220", "\xff\xfe\x00", "𠮷", "ＡＢＣ abc", "a\u0301e\u0300"} {
		f.Add(s)
	}
	l, err := fuzzModel()
	if err != nil {
		f.Fatal(err)
	}
	es := []Embedder{NewHashed(64), l}
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range es {
			vs, err := e.Embed(context.Background(), []string{s, s})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if len(v) != e.Dim() {
					t.Fatalf("%s: %d values, want %d", e.Name(), len(v), e.Dim())
				}
				if n := norm(v); n != 0 && math.Abs(n-1) > 1e-4 || math.IsNaN(n) {
					t.Fatalf("%s %q: norm %v", e.Name(), s, n)
				}
			}
			if !slicesEqual(vs[0], vs[1]) {
				t.Fatalf("%s %q: two embeddings differ", e.Name(), s)
			}
		}
	})
}

func slicesEqual(a, b []float32) bool {
	return bytes.Equal(Encode(a), Encode(b))
}

func FuzzUnmarshal(f *testing.F) {
	// Seeds stay small so that the fuzzer can minimise what it finds.
	for _, texts := range [][]string{nil, {"孙权遣周瑜拒曹操。", "周瑜破曹操于赤壁。", "Red Cliffs, Red Cliffs."}} {
		l, err := Train(context.Background(), texts, Options{Dim: 4, HashedDim: 4, IDFBits: 4, MinCount: 1})
		if err != nil {
			f.Fatal(err)
		}
		b, _ := l.MarshalBinary()
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Add(append([]byte(nil), learnedMagic...))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(data)
		if err != nil {
			return
		}
		// A model that loads must embed without trouble, and what it
		// writes must reload to the same bytes and version (the version
		// is read from the bytes as they were written).
		vs, err := m.Embed(context.Background(), []string{"曹操", "Red Cliffs", ""})
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if n := norm(v); math.IsNaN(n) || n != 0 && math.Abs(n-1) > 1e-4 {
				t.Fatalf("norm %v", n)
			}
		}
		again, _ := m.MarshalBinary()
		m2, err := Load(again)
		if err != nil {
			t.Fatalf("reload: %v", err)
		}
		twice, _ := m2.MarshalBinary()
		if !bytes.Equal(twice, again) || m2.Version() != versionOf(again) {
			t.Fatalf("a written model reloads to other bytes or another version: %s, want %s", m2.Version(), versionOf(again))
		}
	})
}
