package server

import (
	"errors"
	"fmt"
	"time"
	"unicode/utf8"
)

// Limits on what one request may ask for. Each bounds the work a request
// can cause, so that no single request, token or not, can hold the CPU for
// long; a request over a limit is answered 400 with the limit stated.
const (
	MaxQuestion    = 1000      // characters of a question
	MaxOptions     = 26        // options of a multiple-choice question (A–Z)
	MaxOptionText  = 500       // characters of one option
	MaxOptionTag   = 8         // characters of an option's letter
	MaxTopK        = 100       // evidence items of an answer
	MaxDelta       = 500       // ± years of the temporal window
	MaxName        = 200       // characters of an entity name or search text
	MaxRelateTop   = 50        // paths kept by relate
	MaxRelateNodes = 1_000_000 // graph nodes relate may visit
	MaxPath        = 4096      // bytes of a path to index
)

// Time budgets. Reads that only compute get ReadBudget; a question a model
// answers waits on the model, and gets Timeout.
const (
	DefaultReadBudget = 10 * time.Second
	DefaultTimeout    = 2 * time.Minute
)

// overLimit is the error for a field past its limit.
func overLimit(field string, limit int, unit string) error {
	return badRequest(field, fmt.Errorf("over the limit of %d %s", limit, unit))
}

// checkText refuses an empty or over-long text field.
func checkText(field, s string, limit int) error {
	if n := utf8.RuneCountInString(s); n > limit {
		return overLimit(field, limit, "characters")
	}
	return nil
}

// checkAsk bounds a question and its options.
func checkAsk(req *AskRequest) error {
	if err := checkText("question", req.Question, MaxQuestion); err != nil {
		return err
	}
	if len(req.Options) > MaxOptions {
		return overLimit("options", MaxOptions, "options")
	}
	for _, o := range req.Options {
		if err := checkText("options.letter", o.Letter, MaxOptionTag); err != nil {
			return err
		}
		if err := checkText("options.text", o.Text, MaxOptionText); err != nil {
			return err
		}
	}
	if req.TopK < 0 || req.TopK > MaxTopK {
		return badRequest("top_k", fmt.Errorf("%d: want 0 (the default) to %d", req.TopK, MaxTopK))
	}
	if req.Delta != nil && (*req.Delta < 0 || *req.Delta > MaxDelta) {
		return badRequest("delta", fmt.Errorf("%d: want 0 to %d years", *req.Delta, MaxDelta))
	}
	if req.EntitySim < 0 || req.EntitySim > 1 {
		return badRequest("entity_sim", errors.New("want a cosine from 0 (the entity-vector route off) to 1"))
	}
	if req.Theta < -1 || req.Theta > 1 {
		return badRequest("theta", errors.New("want a number from -1 (keep every option) to 1"))
	}
	return nil
}

// checkRelate bounds a relate request.
func checkRelate(req *RelateRequest) error {
	if err := checkText("head", req.Head, MaxName); err != nil {
		return err
	}
	if err := checkText("tail", req.Tail, MaxName); err != nil {
		return err
	}
	if req.Top < 0 || req.Top > MaxRelateTop {
		return badRequest("top", fmt.Errorf("%d: want 0 (the default) to %d", req.Top, MaxRelateTop))
	}
	if req.Budget < 0 || req.Budget > MaxRelateNodes {
		return badRequest("budget", fmt.Errorf("%d: want 0 (the default) to %d", req.Budget, MaxRelateNodes))
	}
	return nil
}
