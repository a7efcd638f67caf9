package main

import (
	"context"
	"slices"
	"time"

	"github.com/annals-project/annals"
)

// Targets for relation reasoning on the First Four Histories, offline.
const (
	targetRelateP50 = 100 * time.Millisecond
	targetRelateP99 = time.Second
	benchPairs      = 200
)

type relateBench struct {
	Pairs     int           `json:"pairs"`
	P50       time.Duration `json:"p50_ns"`
	P99       time.Duration `json:"p99_ns"`
	Max       time.Duration `json:"max_ns"`
	Connected int           `json:"connected"` // pairs with a path whose every step states a relation
	Findings  int           `json:"findings"`
}

// benchRelate relates neighbours in the list of the most mentioned people
// (paths, ranking, per-step evidence, reasoning; nothing written back).
func benchRelate(ctx context.Context, w *annals.Workspace) (*relateBench, error) {
	people, err := w.Entities(ctx, annals.EntityQuery{Type: "人物", Limit: benchPairs + 1})
	if err != nil || len(people) < 2 {
		return nil, err
	}
	// The graph's structure is in memory already (Warm, before the
	// questions).
	rep := &relateBench{}
	opts := annals.RelateOptions{NoFeed: true, Offline: true}
	var times []time.Duration
	for i := 0; i+1 < len(people); i++ {
		start := time.Now()
		res, err := w.RelateIDs(ctx, people[i].ID, people[i+1].ID, opts)
		if err != nil {
			return nil, err
		}
		times = append(times, time.Since(start))
		if len(res.Paths) > 0 {
			rep.Connected++
		}
		rep.Findings += len(res.Findings)
	}
	slices.Sort(times)
	rep.Pairs = len(times)
	rep.P50, rep.P99, rep.Max = percentile(times, 50), percentile(times, 99), times[len(times)-1]
	return rep, nil
}
