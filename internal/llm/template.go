package llm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"text/template"
)

// Template is a prompt with a "system" and a "user" part. Each is built in,
// and a file of the same name in an override folder (the workspace's
// prompts/) replaces it.
type Template struct {
	*template.Template
	Hash   string // SHA-256 of the source: part of versions, so edits re-run work
	Source string // "built-in NAME" or the override's path
}

// LoadTemplate reads the built-in prompt builtinDir/name from fsys, or its
// override in overrideDir when there is one, and checks that it defines
// both parts.
func LoadTemplate(fsys fs.FS, builtinDir, name, overrideDir string, funcs template.FuncMap) (*Template, error) {
	src, err := fs.ReadFile(fsys, builtinDir+"/"+name)
	if err != nil {
		return nil, err
	}
	source := "built-in " + name
	if overrideDir != "" {
		p := filepath.Join(overrideDir, name)
		b, err := os.ReadFile(p)
		switch {
		case err == nil:
			src, source = b, p
		case !errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("prompt override: %w", err)
		}
	}
	t, err := template.New(name).Funcs(funcs).Option("missingkey=error").Parse(string(src))
	if err != nil {
		return nil, fmt.Errorf("prompt %s: %w", source, err)
	}
	for _, part := range []string{"system", "user"} {
		if t.Lookup(part) == nil {
			return nil, fmt.Errorf("prompt %s: no {{define %q}} block", source, part)
		}
	}
	sum := sha256.Sum256(src)
	return &Template{Template: t, Hash: hex.EncodeToString(sum[:]), Source: source}, nil
}

// Messages renders the template's two parts for data.
func (t *Template) Messages(data any) ([]Message, error) {
	var sys, user strings.Builder
	if err := t.ExecuteTemplate(&sys, "system", data); err != nil {
		return nil, fmt.Errorf("prompt %s: %w", t.Source, err)
	}
	if err := t.ExecuteTemplate(&user, "user", data); err != nil {
		return nil, fmt.Errorf("prompt %s: %w", t.Source, err)
	}
	return []Message{{Role: "system", Content: sys.String()}, {Role: "user", Content: user.String()}}, nil
}

// Version names the template as cache keys and step versions see it:
// NAME@HASH.
func (t *Template) Version() string { return t.Name() + "@" + t.Hash }

// ChatJSON renders the template for data, sends it as step and decodes the
// model's JSON reply into out; a reply that is not the JSON asked for, or
// that was cut off, is an error naming the step. Such a reply is not
// cached: asking again asks the model again.
func ChatJSON(ctx context.Context, c Client, t *Template, step string, data, out any) (Usage, error) {
	return ChatJSONStream(ctx, c, t, step, data, out, "", nil)
}

// ChatJSONStream is ChatJSON that also streams the reply and tells stream
// the text of one string field of it (see FieldStream) as it is written.
func ChatJSONStream(ctx context.Context, c Client, t *Template, step string, data, out any, field string, stream func(string)) (Usage, error) {
	msgs, err := t.Messages(data)
	if err != nil {
		return Usage{}, err
	}
	req := Request{Step: step, Messages: msgs, Prompt: t.Version(), Validate: func(content string) error {
		return decodeJSON(content, fresh(out))
	}}
	if stream != nil {
		req.Stream = NewFieldStream(field, stream).Write
	}
	resp, err := c.Chat(ctx, req)
	if resp == nil {
		return Usage{}, fmt.Errorf("%s: %w", step, err)
	}
	if resp.Truncated {
		return resp.Usage, fmt.Errorf("%s: the model's reply was cut off at the completion limit: %s", step, Quote(resp.Content))
	}
	if err != nil && !errors.Is(err, ErrInvalidReply) {
		return resp.Usage, fmt.Errorf("%s: %w", step, err)
	}
	if err := decodeJSON(resp.Content, out); err != nil {
		return resp.Usage, fmt.Errorf("%s: the model's reply is not the JSON asked for: %w: %s", step, err, Quote(resp.Content))
	}
	return resp.Usage, nil
}

// decodeJSON reads the JSON in a reply (see ExtractJSON) into out.
func decodeJSON(content string, out any) error {
	raw, err := ExtractJSON(content)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, out)
}

// fresh is a new value of the type out points to, for checking a reply
// without touching out; out itself when it is no pointer (json.Unmarshal
// refuses those all the same).
func fresh(out any) any {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return out
	}
	return reflect.New(v.Type().Elem()).Interface()
}
