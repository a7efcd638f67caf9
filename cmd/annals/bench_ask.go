package main

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/annals-project/annals"
)

// Targets for question answering on the First Four Histories, offline.
const (
	targetRetrieveP50 = 5 * time.Millisecond
	targetRetrieveP99 = 50 * time.Millisecond
	targetAnswerP50   = 20 * time.Millisecond
	targetAskProcess  = 150 * time.Millisecond // p50 of fresh processes
)

// askTemplates make questions of every kind from a name: typed ones the
// graph answers, a dated one, one about two people, an open one.
var askTemplates = []string{"%s字什么？", "%s是哪里人？", "%s卒于何年？", "%s担任过什么官职？", "%s的父亲是谁？",
	"建安十三年%s在哪里？", "%s与%s是什么关系？", "%s为何起兵？"}

// askProcesses is how many fresh `annals ask` processes are timed.
const askProcesses = 9

type askBench struct {
	Questions int `json:"questions"`
	// Warm is the time to read what questions use into memory (chunk
	// vectors, the lexical index, the graph's structure), as a server does
	// when it starts; the percentiles are over the questions after it.
	Warm        time.Duration `json:"warm_ns"`
	RetrieveP50 time.Duration `json:"retrieve_p50_ns"`
	RetrieveP99 time.Duration `json:"retrieve_p99_ns"`
	AnswerP50   time.Duration `json:"answer_p50_ns"`
	AnswerP99   time.Duration `json:"answer_p99_ns"`
	Answered    int           `json:"answered"`
	// Process is the median of fresh `annals ask` processes, one per
	// question of the first askProcesses, by wall time.
	Process childRun `json:"ask_process"`
}

// benchAsk times retrieval and complete offline answers over questions made
// from the most mentioned people, then one `annals ask` as a fresh process.
// The workspace is warmed first, and that is timed apart.
func benchAsk(ctx context.Context, w *annals.Workspace, exe string, people []string) (*askBench, error) {
	var qs []string
	for i, p := range people {
		t := askTemplates[i%len(askTemplates)]
		if i+1 < len(people) && countVerbs(t) == 2 {
			qs = append(qs, fmt.Sprintf(t, p, people[i+1]))
		} else {
			qs = append(qs, fmt.Sprintf(t, p))
		}
	}
	rep := &askBench{Questions: len(qs)}
	var rt, at []time.Duration
	start := time.Now()
	if err := w.Warm(ctx); err != nil {
		return nil, err
	}
	rep.Warm = time.Since(start)
	for _, q := range qs {
		start := time.Now()
		if _, err := w.Retrieve(ctx, q, 30, 1); err != nil {
			return nil, err
		}
		rt = append(rt, time.Since(start))
		start = time.Now()
		ans, err := w.Ask(ctx, q, annals.AskOptions{Offline: true})
		if err != nil {
			return nil, err
		}
		at = append(at, time.Since(start))
		if ans.Answered {
			rep.Answered++
		}
	}
	rep.RetrieveP50, rep.RetrieveP99 = percentile(rt, 50), percentile(rt, 99)
	rep.AnswerP50, rep.AnswerP99 = percentile(at, 50), percentile(at, 99)
	var runs []childRun
	for _, q := range qs[:min(len(qs), askProcesses)] {
		run, err := runChild(ctx, exe, "ask", "--workspace", w.Dir, "--offline", q)
		if err != nil {
			return nil, err
		}
		runs = append(runs, run)
	}
	if len(runs) > 0 {
		sort.Slice(runs, func(i, j int) bool { return runs[i].Wall < runs[j].Wall })
		rep.Process = runs[len(runs)/2]
	}
	return rep, nil
}

func countVerbs(t string) int {
	n := 0
	for i := 0; i+1 < len(t); i++ {
		if t[i] == '%' && t[i+1] == 's' {
			n++
		}
	}
	return n
}

func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, len(s)*p/100)]
}
