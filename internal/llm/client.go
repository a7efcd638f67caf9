package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// New makes a client for the OpenAI-compatible endpoint in cfg. cache may
// be nil (no caching); meter may be nil, in which case the client keeps its
// own. cfg.MaxTokens becomes the meter's budget unless the meter already
// has one. It returns ErrNotConfigured when cfg.BaseURL is empty. An empty
// cfg.APIKey sends no Authorization header, as local servers (Ollama,
// llama.cpp, vLLM) expect; cfg.MaxRetries < 0 means no retries.
//
// Model output is data: nothing here executes, evaluates or obeys a reply.
// One that reads "ignore previous instructions and …" comes back as plain
// content. Callers parse replies with ExtractJSON or ParseTuples and
// validate every field (names against the source text, relations against
// the schema, citations against the corpus) before anything enters the
// graph.
func New(cfg Config, cache Cache, meter *Meter) (Client, error) {
	return NewWithOptions(cfg, cache, meter, Options{})
}

// NewWithOptions is New with an HTTP client, clock, timeout or jitter of
// the caller's choosing.
func NewWithOptions(cfg Config, cache Cache, meter *Meter, o Options) (Client, error) {
	cfg.BaseURL = strings.TrimSpace(cfg.BaseURL)
	if cfg.BaseURL == "" {
		return nil, ErrNotConfigured
	}
	if cfg.Model == "" {
		return nil, errors.New("llm: no model configured (set llm.model in annals.yaml)")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	} else if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.TimeoutSec <= 0 {
		cfg.TimeoutSec = DefaultTimeoutSec
	}
	if cfg.CallTimeoutSec <= 0 {
		cfg.CallTimeoutSec = DefaultCallTimeoutSec
	}
	if cfg.EmbedModel == "" {
		cfg.EmbedModel = cfg.Model
	}
	if meter == nil {
		meter = NewMeter(cfg.MaxTokens)
	} else if limit, _, _ := meter.Budget(); limit == 0 && cfg.MaxTokens > 0 {
		meter.SetBudget(cfg.MaxTokens)
	}
	c := &client{
		cfg:        cfg,
		base:       strings.TrimRight(cfg.BaseURL, "/"),
		cache:      cache,
		meter:      meter,
		sem:        make(chan struct{}, cfg.Concurrency),
		clock:      o.Clock,
		jitter:     o.Jitter,
		timeout:    o.Timeout,
		maxRetries: cfg.MaxRetries,
	}
	c.callTimeout, c.onWait, c.slow = o.CallTimeout, o.OnWait, o.SlowReply
	if c.clock == nil {
		c.clock = SystemClock()
	}
	if c.jitter == nil {
		c.jitter = fullJitter
	}
	if c.timeout <= 0 {
		c.timeout = time.Duration(cfg.TimeoutSec) * time.Second
	}
	if c.callTimeout <= 0 {
		c.callTimeout = time.Duration(cfg.CallTimeoutSec) * time.Second
	}
	if c.slow <= 0 {
		c.slow = defaultSlowReply
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient(cfg.Concurrency)
	}
	// Explicit options come after the SDK's environment defaults and
	// override them: OPENAI_API_KEY must not travel to a local server
	// configured without a key, and the SDK must not retry on its own.
	c.api = openai.NewClient(
		option.WithBaseURL(c.base+"/"),
		option.WithAPIKey(cfg.APIKey),
		option.WithHeaderDel("OpenAI-Organization"),
		option.WithHeaderDel("OpenAI-Project"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
		option.WithMiddleware(markBodies),
	)
	return c, nil
}

type client struct {
	cfg        Config
	base       string
	api        openai.Client
	cache      Cache
	meter      *Meter
	sem        chan struct{}
	clock      Clock
	jitter     func(time.Duration) time.Duration
	timeout    time.Duration
	maxRetries int
	// callTimeout bounds a call's attempts and waits together; onWait is
	// told of waits, and of attempts without a reply for slow.
	callTimeout time.Duration
	onWait      func(Wait)
	slow        time.Duration
	// noSchema is set once the server has rejected response_format
	// json_schema; later calls describe the schema in the prompt instead.
	noSchema atomic.Bool
}

func (c *client) Model() string { return c.cfg.Model }

// Chat sends one chat call, or answers it from the cache. Only complete
// replies (not empty, not cut off, not withheld) that the request's
// Validate accepts are cached. A cached reply Validate refuses is a miss.
// A fresh reply Validate refuses comes back, paid for and uncached, with an
// *InvalidReplyError; a cut-off one comes back with Truncated set and no
// error, for the caller to refuse or salvage.
func (c *client) Chat(ctx context.Context, req Request) (*Response, error) {
	if len(req.Messages) == 0 {
		return nil, errors.New("llm: chat request has no messages")
	}
	key := CacheKey(c.base, c.cfg.Model, req)
	if c.cache != nil {
		b, ok, err := c.cache.Get(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("llm: read reply cache: %w", err)
		}
		if ok {
			var cr cachedReply
			// An unreadable entry, or one the caller cannot use, is a miss;
			// a new reply the caller can use overwrites it.
			if err := json.Unmarshal(b, &cr); err == nil && cr.Content != "" && validate(req, cr.Content) == nil {
				c.meter.RecordCached(req.Step, cr.Usage)
				if req.Stream != nil {
					req.Stream(cr.Content)
				}
				return &Response{Content: cr.Content, Usage: cr.Usage, Cached: true, FinishReason: "stop"}, nil
			}
		}
	}
	maxTok := req.MaxTokens
	if maxTok <= 0 {
		maxTok = defaultMaxTokens
	}
	resv, err := c.meter.Reserve(ctx, EstimateMessages(req.Messages)+maxTok)
	if err != nil {
		return nil, fmt.Errorf("llm: %s call to %s not made: %w", stepName(req.Step), c.cfg.Model, err)
	}
	content, usage, finish, err := c.chat(ctx, req)
	if err != nil {
		resv.Release()
		c.meter.RecordFailure(req.Step)
		return nil, err
	}
	resv.Commit(req.Step, usage)
	resp := &Response{Content: content, Usage: usage, FinishReason: finish, Truncated: finish == "length"}
	if err := validate(req, content); err != nil {
		return resp, &InvalidReplyError{Step: req.Step, Reason: err.Error(), Start: Quote(content)}
	}
	if c.cache != nil && resp.Complete() {
		b, err := json.Marshal(cachedReply{Content: content, Usage: usage})
		if err == nil {
			err = c.cache.Put(ctx, req.Step, key, b)
		}
		if err != nil {
			// The reply is paid for; hand it over along with the error.
			return resp, fmt.Errorf("llm: store reply in cache: %w", err)
		}
	}
	return resp, nil
}

// validate runs the request's Validate, if any, on a reply.
func validate(req Request, content string) error {
	if req.Validate == nil {
		return nil
	}
	return req.Validate(content)
}

func stepName(s string) string {
	if s == "" {
		return "unnamed step"
	}
	return s
}

// chat makes the HTTP call, falling back to a schema in the prompt when the
// server rejects structured output. finish is the server's finish reason.
func (c *client) chat(ctx context.Context, req Request) (content string, usage Usage, finish string, err error) {
	useFormat := req.Schema != nil && !c.noSchema.Load()
	params, err := c.chatParams(req, useFormat)
	if err != nil {
		return "", Usage{}, "", err
	}
	comp, f, err := c.complete(ctx, req.Step, params, req.Stream)
	if err != nil && useFormat && f != nil && rejectsSchema(f) {
		c.noSchema.Store(true)
		if params, err = c.chatParams(req, false); err != nil {
			return "", Usage{}, "", err
		}
		comp, _, err = c.complete(ctx, req.Step, params, req.Stream)
	}
	if err != nil {
		return "", Usage{}, "", err
	}
	if len(comp.Choices) == 0 {
		return "", Usage{}, "", &CallError{Endpoint: c.base + "/chat/completions", Status: http.StatusOK, Attempts: 1,
			Err: errors.New("reply has no choices")}
	}
	choice := comp.Choices[0]
	content = choice.Message.Content
	finish = choice.FinishReason
	if comp.Usage.PromptTokens > 0 || comp.Usage.CompletionTokens > 0 {
		usage = Usage{PromptTokens: int(comp.Usage.PromptTokens), CompletionTokens: int(comp.Usage.CompletionTokens)}
	} else {
		usage = Usage{PromptTokens: EstimateMessages(req.Messages), CompletionTokens: EstimateTokens(content), Estimated: true}
	}
	return content, usage, finish, nil
}

// complete makes the call; with stream set it asks for server-sent events
// and tells stream each piece of text as it comes.
func (c *client) complete(ctx context.Context, step string, params openai.ChatCompletionNewParams, stream func(string)) (*openai.ChatCompletion, *failure, error) {
	var comp *openai.ChatCompletion
	f, err := c.call(ctx, step, c.base+"/chat/completions", func(ctx context.Context, opts ...option.RequestOption) error {
		if stream == nil {
			var err error
			comp, err = c.api.Chat.Completions.New(ctx, params, opts...)
			return err
		}
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		s := c.api.Chat.Completions.NewStreaming(ctx, params, opts...)
		defer s.Close()
		var acc openai.ChatCompletionAccumulator
		for s.Next() {
			chunk := s.Current()
			acc.AddChunk(chunk)
			if len(chunk.Choices) > 0 && chunk.Choices[0].Delta.Content != "" {
				stream(chunk.Choices[0].Delta.Content)
			}
		}
		if err := s.Err(); err != nil {
			return err
		}
		// A stream that stops before a finish reason broke off: ask again.
		if len(acc.Choices) == 0 || acc.Choices[0].FinishReason == "" {
			return &bodyError{errors.New("the reply's stream ended before the reply did")}
		}
		comp = &acc.ChatCompletion
		return nil
	})
	if err != nil {
		return nil, f, err
	}
	if comp == nil {
		return nil, nil, &CallError{Endpoint: c.base + "/chat/completions", Status: http.StatusOK, Attempts: 1, Err: errors.New("empty reply")}
	}
	return comp, nil, nil
}

// rejectsSchema tells a server that does not do structured output from
// other client errors.
func rejectsSchema(f *failure) bool {
	if f.status != http.StatusBadRequest && f.status != http.StatusUnprocessableEntity {
		return false
	}
	b := strings.ToLower(f.body)
	for _, w := range []string{"response_format", "json_schema", "unsupported", "not supported", "structured output"} {
		if strings.Contains(b, w) {
			return true
		}
	}
	return false
}

var schemaNameRe = regexp.MustCompile(`[^a-zA-Z0-9_-]+`)

func (c *client) chatParams(req Request, useFormat bool) (openai.ChatCompletionNewParams, error) {
	msgs := req.Messages
	if req.Schema != nil && !useFormat {
		var err error
		if msgs, err = withSchemaInstruction(msgs, req.Schema); err != nil {
			return openai.ChatCompletionNewParams{}, err
		}
	}
	p := openai.ChatCompletionNewParams{
		Model:       shared.ChatModel(c.cfg.Model),
		Temperature: openai.Float(req.Temperature),
	}
	for _, m := range msgs {
		switch m.Role {
		case "system":
			p.Messages = append(p.Messages, openai.SystemMessage(m.Content))
		case "user":
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case "assistant":
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		case "developer":
			p.Messages = append(p.Messages, openai.DeveloperMessage(m.Content))
		default:
			return p, fmt.Errorf("llm: message role %q is not system, user or assistant", m.Role)
		}
	}
	// max_tokens rather than max_completion_tokens: every OpenAI-compatible
	// server (vLLM, Ollama, llama.cpp, DeepSeek, Qwen) reads it.
	if req.MaxTokens > 0 {
		p.MaxTokens = openai.Int(int64(req.MaxTokens))
	}
	if useFormat {
		name := schemaNameRe.ReplaceAllString(req.Schema.Name, "_")
		if name == "" {
			name = "reply"
		}
		if len(name) > 64 {
			name = name[:64]
		}
		schema := req.Schema.Schema
		if schema == nil {
			schema = map[string]any{}
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: name, Schema: schema},
			},
		}
	}
	return p, nil
}

// withSchemaInstruction appends the schema to the last user message (or
// adds a user message) for servers without structured output.
func withSchemaInstruction(msgs []Message, s *JSONSchema) ([]Message, error) {
	b, err := json.Marshal(s.Schema)
	if err != nil {
		return nil, fmt.Errorf("llm: encode schema %q: %w", s.Name, err)
	}
	note := "Reply with only a JSON value that follows this JSON Schema, without any other text:\n" + string(b)
	out := append([]Message(nil), msgs...)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role == "user" {
			out[i].Content += "\n\n" + note
			return out, nil
		}
	}
	return append(out, Message{Role: "user", Content: note}), nil
}

// Embed returns one vector per text. Texts already embedded by this model
// come from the cache; the rest are deduplicated and sent in batches of at
// most embedBatch texts, several batches at once within the concurrency
// limit. The usage returned is what this call was billed.
func (c *client) Embed(ctx context.Context, step string, texts []string) ([][]float32, Usage, error) {
	out := make([][]float32, len(texts))
	where := map[string][]int{} // uncached text → its positions in texts
	var missing []string
	for i, t := range texts {
		if pos, ok := where[t]; ok {
			where[t] = append(pos, i)
			continue
		}
		if c.cache != nil {
			b, ok, err := c.cache.Get(ctx, EmbedCacheKey(c.base, c.cfg.EmbedModel, t))
			if err != nil {
				return nil, Usage{}, fmt.Errorf("llm: read embedding cache: %w", err)
			}
			if ok {
				if v, err := decodeVector(b); err == nil {
					out[i] = v
					continue
				}
			}
		}
		where[t] = []int{i}
		missing = append(missing, t)
	}
	if len(missing) == 0 {
		if len(texts) > 0 {
			c.meter.RecordCached(step, Usage{})
		}
		return out, Usage{}, nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		total    Usage
		firstErr error
	)
	for start := 0; start < len(missing); start += embedBatch {
		batch := missing[start:min(start+embedBatch, len(missing))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			vecs, u, err := c.embedBatch(ctx, step, batch)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				return
			}
			total = total.Add(u)
			for j, t := range batch {
				for _, i := range where[t] {
					out[i] = vecs[j]
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, total, firstErr
	}
	return out, total, nil
}

func (c *client) embedBatch(ctx context.Context, step string, batch []string) ([][]float32, Usage, error) {
	est := 0
	for _, t := range batch {
		est += EstimateTokens(t)
	}
	resv, err := c.meter.Reserve(ctx, est)
	if err != nil {
		return nil, Usage{}, fmt.Errorf("llm: %s embedding call to %s not made: %w", stepName(step), c.cfg.EmbedModel, err)
	}
	endpoint := c.base + "/embeddings"
	var res *openai.CreateEmbeddingResponse
	_, err = c.call(ctx, step, endpoint, func(ctx context.Context, opts ...option.RequestOption) error {
		var err error
		res, err = c.api.Embeddings.New(ctx, openai.EmbeddingNewParams{
			Model: openai.EmbeddingModel(c.cfg.EmbedModel),
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: batch},
		}, opts...)
		return err
	})
	if err == nil {
		err = checkEmbeddings(endpoint, res, len(batch))
	}
	if err != nil {
		resv.Release()
		c.meter.RecordFailure(step)
		return nil, Usage{}, err
	}
	vecs := make([][]float32, len(batch))
	for _, d := range res.Data {
		v := make([]float32, len(d.Embedding))
		for k, x := range d.Embedding {
			v[k] = float32(x)
		}
		vecs[d.Index] = v
	}
	u := Usage{PromptTokens: est, Estimated: true}
	if res.JSON.Usage.Valid() && res.Usage.PromptTokens > 0 {
		u = Usage{PromptTokens: int(res.Usage.PromptTokens)}
	}
	resv.Commit(step, u)
	if c.cache != nil {
		for j, t := range batch {
			if err := c.cache.Put(ctx, step, EmbedCacheKey(c.base, c.cfg.EmbedModel, t), encodeVector(vecs[j])); err != nil {
				return vecs, u, fmt.Errorf("llm: store embedding in cache: %w", err)
			}
		}
	}
	return vecs, u, nil
}

// checkEmbeddings verifies that the server returned one vector per text,
// each index once.
func checkEmbeddings(endpoint string, res *openai.CreateEmbeddingResponse, n int) error {
	bad := func(format string, a ...any) error {
		return &CallError{Endpoint: endpoint, Status: http.StatusOK, Attempts: 1, Err: fmt.Errorf(format, a...)}
	}
	if res == nil {
		return bad("empty reply")
	}
	if len(res.Data) != n {
		return bad("%d vectors for %d texts", len(res.Data), n)
	}
	seen := make([]bool, n)
	for _, d := range res.Data {
		if d.Index < 0 || int(d.Index) >= n || seen[d.Index] {
			return bad("vector index %d out of range or repeated", d.Index)
		}
		seen[d.Index] = true
		if len(d.Embedding) == 0 {
			return bad("empty vector at index %d", d.Index)
		}
	}
	return nil
}
