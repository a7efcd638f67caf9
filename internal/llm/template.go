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

// ChatJSON renders the template for data, sends it as step and decodes the
// model's JSON reply into out; a reply that is not the JSON asked for is an
// error naming the step.
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
	req := Request{Step: step, Messages: msgs}
	if stream != nil {
		req.Stream = NewFieldStream(field, stream).Write
	}
	resp, err := c.Chat(ctx, req)
	if err != nil {
		return Usage{}, fmt.Errorf("%s: %w", step, err)
	}
	raw, err := ExtractJSON(resp.Content)
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err != nil {
		return resp.Usage, fmt.Errorf("%s: the model's reply is not the JSON asked for: %w", step, err)
	}
	return resp.Usage, nil
}
