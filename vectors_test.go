package annals

import (
	"context"
	"github.com/annals-project/annals/internal/retrieve"
	"os"
	"path/filepath"
	"testing"

	"github.com/annals-project/annals/internal/embed"
	"github.com/annals-project/annals/internal/workspace"
)

// The chunk vectors are packed when indexing ends, read from the pack,
// and read again when the chunks change: a passage indexed after the
// first question is found by the vector route.
func TestChunkVectorsArePackedAndFollowTheChunks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "corpus", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("a.txt", "诸葛亮字孔明，琅邪阳都人也。躬耕陇亩，好为梁父吟。每自比于管仲、乐毅，时人莫之许也。")
	write("b.txt", "关羽字云长，本字长生，河东解人也。亡命奔涿郡。先主于乡里合徒众，而羽与张飞为之御侮。")
	ws, err := Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	gen, err := ws.db.ChunkVectorGeneration(ctx)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := ws.db.State(ctx, stateChunkVectors)
	var snap embed.Snapshot
	if err != nil || blob == nil || snap.UnmarshalBinary(blob) != nil || snap.Generation != gen || len(snap.IDs) == 0 {
		t.Fatalf("no current packed copy of the chunk vectors after indexing (%v, generation %q, want %q)", err, snap.Generation, gen)
	}
	first, err := ws.vectors(ctx)
	if err != nil || first.vecs == nil || first.em == nil {
		t.Fatalf("vectors %+v, %v", first, err)
	}
	write("c.txt", "张飞字益德，涿郡人也，少与关羽俱事先主。羽年长数岁，飞兄事之。")
	if _, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	second, err := ws.vectors(ctx)
	if err != nil || second == first || second.vecs.Len() <= first.vecs.Len() {
		t.Fatalf("the vectors were not read again after new chunks: %d then %d", first.vecs.Len(), second.vecs.Len())
	}
	hits, err := ws.nearestChunks(ctx, nil, "张飞字益德", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("nearest %v, %v", hits, err)
	}
	ps, err := ws.db.Passages(ctx, []int64{hits[0].ID})
	if err != nil || len(ps) != 1 || ps[0].DocKey != "c.txt" {
		t.Fatalf("the new passage is not the nearest to its own words: %+v, %v", ps, err)
	}

	// Another process reads the workspace's cache file, current after the
	// question above; a damaged or stale one is made again from the store,
	// and the answer does not change.
	cache := workspace.CachePath(ws.Dir, stateChunkVectors+".vec")
	data, err := os.ReadFile(cache)
	if err != nil {
		t.Fatalf("no cache file of the chunk vectors: %v", err)
	}
	if snap, err := embed.ViewSnapshot(data); err != nil || snap.Generation != second.gen {
		t.Fatalf("the cache file is not of the current vectors: %q, %v", snap.Generation, err)
	}
	nearestIn := func() int64 {
		t.Helper()
		other, err := Open(ctx, ws.Dir)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		hits, err := other.nearestChunks(ctx, nil, "张飞字益德", 1)
		if err != nil || len(hits) != 1 {
			t.Fatalf("nearest %v, %v", hits, err)
		}
		return hits[0].ID
	}
	for name, bad := range map[string][]byte{"damaged": data[:len(data)/2], "stale": first.snapshot(t)} {
		if err := os.WriteFile(cache, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := nearestIn(); got != hits[0].ID {
			t.Errorf("with a %s cache file the nearest chunk is %d, want %d", name, got, hits[0].ID)
		}
		again, _ := os.ReadFile(cache)
		if snap, err := embed.ViewSnapshot(again); err != nil || snap.Generation != second.gen {
			t.Errorf("a %s cache file was not made again: %q, %v", name, snap.Generation, err)
		}
	}
}

// snapshot packs a vector set as its cache file holds it.
func (v *vectorSet) snapshot(t *testing.T) []byte {
	t.Helper()
	b, err := (&embed.Snapshot{Generation: v.gen, Model: v.model, IDs: v.ids, Vectors: v.vecs}).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The entity vectors are packed when indexing ends too, and read again
// when new entities are embedded; the fact vectors are built in memory
// once per generation. An entity asked about by its own words is the
// nearest, and a fact by its own words the first.
func TestEntityAndFactVectorsFollowTheGraph(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "corpus", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "corpus"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("a.txt", "诸葛亮字孔明，琅邪阳都人也。躬耕陇亩，好为梁父吟。每自比于管仲、乐毅，时人莫之许也。")
	write("b.txt", "关羽字云长，本字长生，河东解人也。亡命奔涿郡。先主于乡里合徒众，而羽与张飞为之御侮。")
	ws, err := Open(ctx, filepath.Join(dir, ".annals"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if _, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	gen, err := ws.db.EntityVectorGeneration(ctx)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := ws.db.State(ctx, stateEntityVectors)
	var snap embed.Snapshot
	if err != nil || blob == nil || snap.UnmarshalBinary(blob) != nil || snap.Generation != gen || len(snap.IDs) == 0 {
		t.Fatalf("no current packed copy of the entity vectors after indexing (%v, generation %q, want %q)", err, snap.Generation, gen)
	}
	first, err := ws.entityVectors(ctx)
	if err != nil || first.vecs == nil || first.em == nil {
		t.Fatalf("entity vectors %+v, %v", first, err)
	}
	hits, err := ws.nearestEntities(ctx, nil, "关羽", 1)
	if err != nil || len(hits) != 1 {
		t.Fatalf("nearest entities %v, %v", hits, err)
	}
	ents, err := ws.db.EntitiesByID(ctx, []int64{hits[0].ID})
	if err != nil || len(ents) != 1 || ents[0].Name != "关羽" {
		t.Fatalf("关羽 is not the entity nearest to his name: %+v, %v", ents, err)
	}
	facts, err := ws.factVectors(ctx)
	if err != nil || facts.vecs == nil {
		t.Fatalf("fact vectors %+v, %v", facts, err)
	}
	if again, _ := ws.factVectors(ctx); again != facts {
		t.Fatal("the fact vectors were built again within one generation")
	}
	write("c.txt", "张飞字益德，涿郡人也，少与关羽俱事先主。羽年长数岁，飞兄事之。")
	if _, err := ws.Index(ctx, []string{filepath.Join(dir, "corpus")}, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	second, err := ws.entityVectors(ctx)
	if err != nil || second == first || second.vecs.Len() <= first.vecs.Len() {
		t.Fatalf("the entity vectors were not read again after new entities: %d then %d", first.vecs.Len(), second.vecs.Len())
	}
	if again, _ := ws.factVectors(ctx); again == facts {
		t.Fatal("the fact vectors were not built again after new facts")
	}
	res, err := ws.retriever(ctx, nil).Retrieve(ctx, "张飞字什么", retrieve.Options{EntitySim: SuggestedEntitySim})
	if err != nil {
		t.Fatal(err)
	}
	if _, ran := res.Routes["entity-vector"]; !ran {
		t.Fatalf("the entity-vector route did not run: routes %v, inactive %v", res.Routes, res.Inactive)
	}
	if _, ran := res.Routes["dfs"]; !ran {
		t.Fatalf("the dfs route did not run for a question naming one entity: routes %v, inactive %v", res.Routes, res.Inactive)
	}
}
