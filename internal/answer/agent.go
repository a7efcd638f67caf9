package answer

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/retrieve"
)

// agent answers a question by steps (Youtu-GraphRAG §3.3): it breaks the
// question into atomic sub-questions, retrieves for each, and reasons over
// what it found until the evidence suffices or the steps run out. Offline,
// the steps follow bridge entities: answer the inner question, put its
// answer in, answer the outer one.
func (a *Answerer) agent(ctx context.Context, question string, opts Options) (*Answer, error) {
	// The sub-questions' answers would interleave in a stream: only the
	// result is given.
	opts.Stream = nil
	if a.LLM != nil {
		return a.agentLLM(ctx, question, opts)
	}
	an, err := retrieve.Analyze(ctx, a.R.Src, question, a.T2S)
	if err != nil {
		return nil, err
	}
	if subs := chain(an); len(subs) > 1 {
		return a.chained(ctx, question, subs, opts)
	}
	return a.bridged(ctx, question, opts)
}

// chain splits a question that asks along a chain of typed relations
// (诸葛亮的儿子的字是什么: his son, then the son's 字) into the inner
// question and the rest, where the rest starts with a placeholder for
// the inner answer.
func chain(an *retrieve.Analysis) []string {
	if len(an.Entities) == 0 {
		return nil
	}
	rs := []rune(an.Norm)
	at := an.Entities[0].Span.End
	end := retrieve.FirstAsk(string(rs[at:]))
	if end <= 0 || at+end >= len(rs)-1 {
		return nil
	}
	inner, rest := string(rs[:at+end]), string(rs[at+end:])
	if typ, ask := retrieve.Classify("X" + rest); ask == nil && typ == retrieve.QWhat {
		return nil
	}
	return []string{inner + "是谁", "#1" + rest}
}

var placeholder = regexp.MustCompile(`#(\d+)`)

// chained answers sub-questions in order, each with the answers before it
// put in for their placeholders.
func (a *Answerer) chained(ctx context.Context, question string, subs []string, opts Options) (*Answer, error) {
	var steps []Step
	var last *Answer
	var evs []*kg.Evidence
	answers := map[string]string{}
	for i, sub := range subs {
		q := placeholder.ReplaceAllStringFunc(sub, func(m string) string { return answers[m[1:]] })
		res, level, err := a.retrieveAt(ctx, q, "", opts)
		if err != nil {
			return nil, err
		}
		ans, err := a.answerFrom(ctx, res, opts)
		if err != nil {
			return nil, err
		}
		st := Step{N: i + 1, Question: q, Level: level, Answer: ans.Answer, Items: keys(ans.Items)}
		if !ans.Answered {
			st.Thought = "no answer: the chain stops here"
			steps = append(steps, st)
			last = ans
			break
		}
		// The inner answer carried on is the first entity it names.
		bridge := firstName(ans)
		answers[fmt.Sprint(i+1)] = bridge
		st.Bridge = bridge
		for _, c := range ans.Citations {
			c := c
			evs = append(evs, &c.Evidence)
		}
		steps = append(steps, st)
		last = ans
	}
	last.Question, last.Trace, last.Method = question, steps, "agent"
	if last.Answered {
		last.Citations = cite(evs...)
	}
	return last, nil
}

// retrieveAt retrieves for a sub-question at its level of the knowledge
// tree: the one a plan gave it, or else the one its wording asks at
// (retrieve.LevelOf). It says which level that was.
func (a *Answerer) retrieveAt(ctx context.Context, q, level string, opts Options) (*retrieve.Result, string, error) {
	ro := a.retrieveOptions(opts, nil)
	if slices.Contains(retrieve.Levels, level) {
		ro.Level = level
		res, err := a.R.Retrieve(ctx, q, ro)
		return res, level, err
	}
	an, err := retrieve.Analyze(ctx, a.R.Src, q, a.T2S)
	if err != nil {
		return nil, "", fmt.Errorf("analyse the sub-question: %w", err)
	}
	ro.Level = retrieve.LevelOf(an)
	res, err := a.R.RetrieveFor(ctx, an, ro)
	return res, ro.Level, err
}

// subQuestion is one step of a plan: the question and the level that
// answers it. A plan may also give bare strings; their level is then
// read from their wording.
type subQuestion struct {
	Question string `json:"question"`
	Level    string `json:"level"`
}

func (s *subQuestion) UnmarshalJSON(b []byte) error {
	var q string
	if json.Unmarshal(b, &q) == nil {
		*s = subQuestion{Question: q}
		return nil
	}
	type plain subQuestion
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("a sub-question is neither text nor {question, level}: %w", err)
	}
	*s = subQuestion(p)
	return nil
}

// firstName is the answer entity of a typed answer, or the answer itself.
func firstName(ans *Answer) string {
	for _, it := range ans.Items {
		if r := it.Relation; r != nil && strings.Contains(ans.Answer, r.Tail) && !ans.Analysis.Named(r.TailID) {
			return r.Tail
		}
		if r := it.Relation; r != nil && strings.Contains(ans.Answer, r.Head) && !ans.Analysis.Named(r.HeadID) {
			return r.Head
		}
	}
	return strings.TrimSuffix(ans.Answer, "。")
}

// bridged answers a question whose answer lies one entity away: the best
// sentence for the question names a bridge entity the question does not;
// retrieving again with it finds the sentence that answers the question
// about the bridge. It stops when no new bridge appears or a step adds
// nothing, and keeps the best-supported answer.
func (a *Answerer) bridged(ctx context.Context, question string, opts Options) (*Answer, error) {
	var steps []Step
	var followed []string
	var best *Answer
	usedChunks := map[int64]bool{}
	q := question
	for n := 1; n <= opts.MaxSteps; n++ {
		res, err := a.R.Retrieve(ctx, q, a.retrieveOptions(opts, nil))
		if err != nil {
			return nil, err
		}
		// A later step must find something new: drop the passages that
		// earlier steps answered with.
		var fresh []retrieve.Item
		for _, it := range res.Items {
			if it.Kind != retrieve.KindChunk || it.Citation == nil || !usedChunks[it.Citation.ChunkID] {
				fresh = append(fresh, it)
			}
		}
		res.Items = fresh
		ans, err := a.answerFrom(ctx, res, opts)
		if err != nil {
			return nil, err
		}
		st := Step{N: n, Question: q, Answer: ans.Answer, Items: keys(ans.Items)}
		// An answer about the bridge just followed (its sentence names it)
		// answers the whole question better than the step before.
		if best == nil || !best.Answered && ans.Answered ||
			ans.Answered && len(followed) > 0 && len(ans.Citations) > 0 && strings.Contains(ans.Citations[0].Norm, followed[len(followed)-1]) {
			best = ans
		}
		if !ans.Answered || len(ans.Citations) == 0 {
			st.Thought = "nothing more found: stop"
			steps = append(steps, st)
			break
		}
		for _, c := range ans.Citations {
			usedChunks[c.ChunkID] = true
		}
		bridge, err := a.bridgeIn(ctx, ans, res.Analysis, followed)
		if err != nil {
			return nil, err
		}
		rest := residual(q, ans.Citations[0].Norm)
		if bridge == "" || rest == "" {
			st.Thought = "no new entity to follow, or nothing left to ask: stop"
			steps = append(steps, st)
			break
		}
		st.Bridge = bridge
		st.Thought = "follow " + bridge
		steps = append(steps, st)
		followed = append(followed, bridge)
		// The next sub-question: what the sentence did not answer, about
		// the bridge.
		q = rest + " " + bridge
	}
	best.Question, best.Trace = question, steps
	if best.Method != "none" {
		best.Method = "agent"
	}
	return best, nil
}

// residual is what of a question a sentence leaves unanswered: its words
// (or, in Chinese, its characters) that the sentence does not contain.
func residual(q, sentence string) string {
	low := strings.ToLower(sentence)
	var keep []string
	for _, w := range strings.Fields(q) {
		t := strings.ToLower(strings.Trim(w, "?？,.!;:\"'"))
		if t == "" || strings.Contains(low, t) && len(t) > 2 {
			continue
		}
		keep = append(keep, strings.Trim(w, "?？"))
	}
	if len(keep) == 1 && !strings.ContainsAny(q, " ") {
		// A Chinese question is one "word": keep the characters not said.
		var rs []rune
		for _, r := range keep[0] {
			if !strings.ContainsRune(sentence, r) {
				rs = append(rs, r)
			}
		}
		return string(rs)
	}
	return strings.Join(keep, " ")
}

// bridgeIn finds an entity named in an answer's first citation that the
// question does not name and no step has followed yet. Where the question
// says what kind of thing the bridge is (the country where …, the company
// which …), a candidate the texts call one is preferred.
func (a *Answerer) bridgeIn(ctx context.Context, ans *Answer, q *retrieve.Analysis, followed []string) (string, error) {
	sent, err := retrieve.Analyze(ctx, a.R.Src, ans.Citations[0].Norm, false)
	if err != nil {
		return "", err
	}
	var cands, places []string
	for _, m := range sent.Entities {
		if q.Named(m.Entity.ID) || contains(followed, m.Entity.Name) || len([]rune(m.Text)) < 2 {
			continue
		}
		cands = append(cands, m.Entity.Name)
		if m.Entity.Type == "place" || m.Entity.Type == "地点" {
			places = append(places, m.Entity.Name)
		}
	}
	if len(cands) == 0 {
		return "", nil
	}
	kind := bridgeKind(q.Norm)
	// A name that says its kind (Jefferson County) is one.
	for _, c := range cands {
		if kind != "" && strings.Contains(strings.ToLower(c), kind) {
			return c, nil
		}
	}
	if kind != "" && len(cands) > 1 && a.R.Lexical != nil {
		for _, c := range cands {
			ok, err := a.calledA(ctx, c, kind)
			if err != nil {
				return "", err
			}
			if ok {
				return c, nil
			}
		}
	}
	// English names places from the narrowest to the widest (a district,
	// then the country): the widest is the one asked for.
	if containers[kind] && len(places) > 0 {
		return places[len(places)-1], nil
	}
	return cands[0], nil
}

// containers are kinds of place that hold the others a sentence names.
var containers = map[string]bool{"country": true, "nation": true, "continent": true}

// kindBefore finds the noun a relative clause hangs on: "the country
// where", "the association which", "the city in which".
var kindBefore = regexp.MustCompile(`(?i)\bthe ([a-z]+) (?:where|which|that|who|whose|in which|of which|from which)\b`)

// bridgeKind is the kind of thing a multi-hop question's bridge is.
func bridgeKind(q string) string {
	if m := kindBefore.FindStringSubmatch(q); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// calledA says whether some sentence of the texts names the entity and
// the kind together (Zimbabwe … a landlocked country).
func (a *Answerer) calledA(ctx context.Context, name, kind string) (bool, error) {
	ps, err := a.lexicalPassages(ctx, name+" "+kind, 5)
	if err != nil {
		return false, err
	}
	is := regexp.MustCompile(`(?i)` + regexp.QuoteMeta(name) + `[^.;]{0,80}?\b(?:is|was|are|were)\b (?:a|an|the|one of the)\b[^.;]{0,40}?\b` + regexp.QuoteMeta(kind) + `\b`)
	for _, p := range ps {
		if is.MatchString(p.Norm) {
			return true, nil
		}
	}
	return false, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keys(items []retrieve.Item) []string {
	n := min(len(items), 5)
	out := make([]string, n)
	for i := range out {
		out[i] = items[i].Key
	}
	return out
}

// agentLLM decomposes with the model, retrieves for the independent
// sub-questions in parallel, then reflects: answer, or ask the next
// sub-question, until the evidence suffices or the steps run out.
func (a *Answerer) agentLLM(ctx context.Context, question string, opts Options) (*Answer, error) {
	an, err := retrieve.Analyze(ctx, a.R.Src, question, a.T2S)
	if err != nil {
		return nil, err
	}
	ans := &Answer{Question: question, Mode: opts.Mode, Analysis: an, Method: "agent"}
	var plan struct {
		Sub []subQuestion `json:"sub_questions"`
	}
	rels := "子女, 孙, 同胞, 婚恋, 别称, 任官, 封爵, 下级, 上级, 更代, 所属团体, 攻, 占, 辖, 访, 籍贯, 死亡时间"
	if err := a.call(ctx, ans, StepAnswer, "decompose.tmpl", map[string]any{"Question": question, "Relations": rels}, &plan); err != nil {
		return nil, err
	}
	plan.Sub = slices.DeleteFunc(plan.Sub, func(s subQuestion) bool { return strings.TrimSpace(s.Question) == "" })
	if len(plan.Sub) == 0 {
		plan.Sub = []subQuestion{{Question: question}}
	}
	if len(plan.Sub) > opts.MaxSteps {
		plan.Sub = plan.Sub[:opts.MaxSteps]
	}
	// Sub-questions that need no earlier answer are retrieved at once.
	results := make([]*retrieve.Result, len(plan.Sub))
	levels := make([]string, len(plan.Sub))
	errs := make([]error, len(plan.Sub))
	var wg sync.WaitGroup
	for i, sub := range plan.Sub {
		if placeholder.MatchString(sub.Question) {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], levels[i], errs[i] = a.retrieveAt(ctx, sub.Question, sub.Level, opts)
		}()
	}
	wg.Wait()
	var pool []retrieve.Item
	seen := map[string]bool{}
	addItems := func(items []retrieve.Item) {
		for _, it := range items[:min(len(items), opts.TopK)] {
			if !seen[it.Key] {
				seen[it.Key] = true
				pool = append(pool, it)
			}
		}
	}
	answers := map[string]string{}
	for i, sub := range plan.Sub {
		if errs[i] != nil {
			return nil, errs[i]
		}
		q := placeholder.ReplaceAllStringFunc(sub.Question, func(m string) string { return answers[m[1:]] })
		res, level := results[i], levels[i]
		if res == nil {
			if res, level, err = a.retrieveAt(ctx, q, sub.Level, opts); err != nil {
				return nil, err
			}
		}
		sa, err := a.answerFrom(ctx, res, opts)
		if err != nil {
			return nil, err
		}
		ans.Usage = ans.Usage.Add(sa.Usage)
		answers[fmt.Sprint(i+1)] = sa.Answer
		ans.Trace = append(ans.Trace, Step{N: i + 1, Question: q, Level: level, Answer: sa.Answer, Items: keys(sa.Items)})
		addItems(sa.Items)
	}
	for len(ans.Trace) <= opts.MaxSteps {
		nums := number(pool)
		var reply struct {
			Sufficient bool   `json:"sufficient"`
			Answer     string `json:"answer"`
			Citations  []int  `json:"citations"`
			Next       string `json:"next_question"`
			Unable     bool   `json:"unable"`
			Own        bool   `json:"own_knowledge"`
		}
		data := map[string]any{"Question": question, "Mode": opts.Mode, "Steps": ans.Trace, "Items": nums}
		if err := a.call(ctx, ans, StepAnswer, "reflect.tmpl", data, &reply); err != nil {
			return nil, err
		}
		evs := citedEvidence(nums, reply.Citations)
		if reply.Sufficient && strings.TrimSpace(reply.Answer) != "" && (opts.Mode == ModeOpen || len(evs) > 0) {
			ans.Answer, ans.Answered, ans.Own = strings.TrimSpace(reply.Answer), true, opts.Mode == ModeOpen && reply.Own
			ans.Citations, ans.Items = cite(evs...), pool
			return ans, nil
		}
		if reply.Unable || strings.TrimSpace(reply.Next) == "" || len(ans.Trace) == opts.MaxSteps {
			break
		}
		res, level, err := a.retrieveAt(ctx, reply.Next, "", opts)
		if err != nil {
			return nil, err
		}
		sa, err := a.answerFrom(ctx, res, opts)
		if err != nil {
			return nil, err
		}
		ans.Usage = ans.Usage.Add(sa.Usage)
		ans.Trace = append(ans.Trace, Step{N: len(ans.Trace) + 1, Question: reply.Next, Level: level, Answer: sa.Answer, Items: keys(sa.Items),
			Thought: "the evidence did not suffice"})
		addItems(sa.Items)
	}
	ans.Answer, ans.Answered, ans.Items = unable(an.Lang), false, pool
	ans.Citations = cite()
	return ans, nil
}
