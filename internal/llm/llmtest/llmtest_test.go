package llmtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/annals-project/annals/internal/llm"
	"github.com/annals-project/annals/internal/llm/llmtest"
)

// post sends a chat completion request by hand and decodes the reply.
func post(t *testing.T, url string, body any) (int, map[string]any, http.Header) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(raw, &out)
	return res.StatusCode, out, res.Header
}

func chatBody(text string) map[string]any {
	return map[string]any{
		"model":       "m",
		"temperature": 0.5,
		"max_tokens":  64,
		"messages":    []any{map[string]any{"role": "user", "content": text}},
	}
}

func content(t *testing.T, out map[string]any) string {
	t.Helper()
	choices, _ := out["choices"].([]any)
	if len(choices) != 1 {
		t.Fatalf("reply %v has no choice", out)
	}
	msg := choices[0].(map[string]any)["message"].(map[string]any)
	return msg["content"].(string)
}

func TestScriptThenHandlerThenDefault(t *testing.T) {
	s := llmtest.New(t)
	s.Script(llmtest.Reply{Content: "first", Usage: &llm.Usage{PromptTokens: 3, CompletionTokens: 4}},
		llmtest.Reply{Status: 429, Header: map[string]string{"Retry-After": "2"}})
	url := s.URL + "/chat/completions"

	_, out, _ := post(t, url, chatBody("a"))
	if content(t, out) != "first" {
		t.Fatalf("reply %v", out)
	}
	if u := out["usage"].(map[string]any); u["prompt_tokens"] != 3.0 || u["total_tokens"] != 7.0 {
		t.Fatalf("usage %v", u)
	}
	code, out, h := post(t, url, chatBody("b"))
	if code != 429 || h.Get("Retry-After") != "2" || out["error"] == nil {
		t.Fatalf("scripted 429: %d %v %v", code, h, out)
	}
	// Nothing scripted or handled: "{}" with estimated usage.
	_, out, _ = post(t, url, chatBody("诸葛亮"))
	if content(t, out) != "{}" || out["usage"] == nil {
		t.Fatalf("default reply %v", out)
	}
	s.Handle(func(r llmtest.ChatRequest) llmtest.Reply {
		return llmtest.Reply{Content: "echo " + r.Messages[0].Content}
	})
	_, out, _ = post(t, url, chatBody("c"))
	if content(t, out) != "echo c" || out["usage"] != nil {
		t.Fatalf("handled reply %v", out)
	}
	if s.Calls() != 4 {
		t.Fatalf("calls = %d", s.Calls())
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[3].Model != "m" || reqs[3].Temperature != 0.5 || reqs[3].MaxTokens != 64 {
		t.Fatalf("requests %+v", reqs)
	}
}

func TestRawTruncateAndRejectSchema(t *testing.T) {
	s := llmtest.New(t, llmtest.WithRejectJSONSchema())
	url := s.URL + "/chat/completions"
	s.Script(llmtest.Reply{Raw: "not json", Status: 502})
	code, _, _ := post(t, url, chatBody("a"))
	if code != 502 {
		t.Fatalf("raw: status %d", code)
	}

	s.Script(llmtest.Reply{Content: strings.Repeat("x", 100), Truncate: true})
	b, _ := json.Marshal(chatBody("b"))
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(res.Body)
	res.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated body read: %v", err)
	}

	body := chatBody("c")
	body["response_format"] = map[string]any{"type": "json_schema", "json_schema": map[string]any{"name": "x", "schema": map[string]any{}}}
	code, out, _ := post(t, url, body)
	if code != 400 || !strings.Contains(out["error"].(map[string]any)["message"].(string), "json_schema") {
		t.Fatalf("schema: %d %v", code, out)
	}
	body["response_format"] = map[string]any{"type": "json_object"}
	if code, _, _ := post(t, url, body); code != 200 {
		t.Fatalf("json_object: %d", code)
	}
}

func TestLatencyDoesNotSerialize(t *testing.T) {
	const n, lat = 16, 50 * time.Millisecond
	s := llmtest.New(t, llmtest.WithLatency(lat))
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			post(t, s.URL+"/chat/completions", chatBody("x"))
		}()
	}
	wg.Wait()
	el := time.Since(start)
	// One after the other they would take n × lat.
	if el < lat || el > 6*lat {
		t.Fatalf("%d concurrent calls of %v took %v", n, lat, el)
	}
	if s.MaxInFlight() < n/2 {
		t.Fatalf("max in flight %d", s.MaxInFlight())
	}
}

func TestEmbeddingsAndModels(t *testing.T) {
	s := llmtest.New(t)
	code, out, _ := post(t, s.URL+"/embeddings", map[string]any{"model": "e", "input": []string{"a", "b"}})
	data, _ := out["data"].([]any)
	if code != 200 || len(data) != 2 || s.EmbedCalls() != 1 {
		t.Fatalf("embeddings: %d %v", code, out)
	}
	if v := data[1].(map[string]any)["embedding"].([]any); len(v) != 16 {
		t.Fatalf("dimension %d", len(v))
	}
	if _, out, _ = post(t, s.URL+"/embeddings", map[string]any{"model": "e", "input": "one"}); len(out["data"].([]any)) != 1 {
		t.Fatalf("single input: %v", out)
	}
	if got := s.EmbedBatches(); len(got) != 2 || len(got[0]) != 2 || got[1][0] != "one" {
		t.Fatalf("batches %v", got)
	}
	a, b := llmtest.HashEmbed("诸葛亮"), llmtest.HashEmbed("诸葛亮")
	var norm float64
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("HashEmbed is not deterministic")
		}
		norm += float64(a[i] * a[i])
	}
	if norm < 0.99 || norm > 1.01 {
		t.Fatalf("norm² = %v", norm)
	}

	res, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var models struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&models); err != nil || len(models.Data) == 0 {
		t.Fatalf("models: %v %+v", err, models)
	}
}

func TestDown(t *testing.T) {
	s := llmtest.New(t)
	post(t, s.URL+"/chat/completions", chatBody("a"))
	s.Down()
	// A fresh client: one holding a kept-alive connection may first see
	// that connection closed (EOF) instead.
	fresh := &http.Client{Transport: &http.Transport{}}
	_, err := fresh.Post(s.URL+"/chat/completions", "application/json", strings.NewReader("{}"))
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("after Down: %v", err)
	}
}
