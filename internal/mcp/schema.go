package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Schema is the part of JSON Schema that the tools' input schemas use. It
// is both what tools/list shows and what the arguments are checked
// against, so the two cannot disagree.
type Schema struct {
	Type                 string             `json:"type"`
	Description          string             `json:"description,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Minimum              *int               `json:"minimum,omitempty"`
	Maximum              *int               `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	Default              any                `json:"default,omitempty"`
}

func ptr[T any](v T) *T { return &v }

// object is an object schema that takes no other properties.
func object(props map[string]*Schema, required ...string) *Schema {
	return &Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: ptr(false)}
}

// str is a non-empty string.
func str(description string) *Schema {
	return &Schema{Type: "string", Description: description, MinLength: ptr(1)}
}

// integer is an integer within [min, max], with a default unless def is
// nil.
func integer(description string, min, max int, def any) *Schema {
	return &Schema{Type: "integer", Description: description, Minimum: ptr(min), Maximum: ptr(max), Default: def}
}

// validate checks a value decoded with UseNumber against the schema and
// returns it with its integers as int64 (so that 10.0 decodes into an
// int). at names the value in messages.
func (s *Schema) validate(v any, at string) (any, error) {
	name := at
	if name == "" {
		name = "arguments"
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s must be an object, not %s", name, kind(v))
		}
		for _, r := range s.Required {
			if _, ok := m[r]; !ok {
				return nil, fmt.Errorf("missing required argument %q", join(at, r))
			}
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(m))
		for _, k := range keys {
			p, ok := s.Properties[k]
			if !ok {
				if s.AdditionalProperties != nil && !*s.AdditionalProperties {
					return nil, fmt.Errorf("unknown argument %q (want %s)", join(at, k), s.propertyNames())
				}
				continue
			}
			nv, err := p.validate(m[k], join(at, k))
			if err != nil {
				return nil, err
			}
			out[k] = nv
		}
		return out, nil
	case "array":
		a, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%q must be an array, not %s", name, kind(v))
		}
		if s.MaxItems != nil && len(a) > *s.MaxItems {
			return nil, fmt.Errorf("%q has %d items; at most %d", name, len(a), *s.MaxItems)
		}
		out := make([]any, len(a))
		for i, x := range a {
			nv, err := s.Items.validate(x, fmt.Sprintf("%s[%d]", name, i))
			if err != nil {
				return nil, err
			}
			out[i] = nv
		}
		return out, nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("%q must be a string, not %s", name, kind(v))
		}
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			return nil, fmt.Errorf("%q is empty", name)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return nil, fmt.Errorf("%q is longer than %d characters", name, *s.MaxLength)
		}
		if len(s.Enum) > 0 {
			for _, e := range s.Enum {
				if str == e {
					return str, nil
				}
			}
			return nil, fmt.Errorf("%q is %q; want one of %q", name, str, s.Enum)
		}
		return str, nil
	case "integer":
		num, ok := v.(json.Number)
		if !ok {
			return nil, fmt.Errorf("%q must be an integer, not %s", name, kind(v))
		}
		f, err := strconv.ParseFloat(string(num), 64)
		if err != nil && !math.IsInf(f, 0) || f != math.Trunc(f) {
			return nil, fmt.Errorf("%q must be an integer, not %s", name, num)
		}
		if s.Minimum != nil && f < float64(*s.Minimum) || s.Maximum != nil && f > float64(*s.Maximum) {
			return nil, fmt.Errorf("%q is %s; want %s", name, num, s.bounds())
		}
		return int64(f), nil
	case "boolean":
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("%q must be true or false, not %s", name, kind(v))
		}
		return b, nil
	}
	return nil, fmt.Errorf("%s: the schema has an unknown type %q", name, s.Type)
}

func (s *Schema) bounds() string {
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return fmt.Sprintf("%d to %d", *s.Minimum, *s.Maximum)
	case s.Minimum != nil:
		return fmt.Sprintf("at least %d", *s.Minimum)
	case s.Maximum != nil:
		return fmt.Sprintf("at most %d", *s.Maximum)
	}
	return "an integer"
}

func (s *Schema) propertyNames() string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, strconv.Quote(k))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	out := names[0]
	for _, n := range names[1:] {
		out += ", " + n
	}
	return out
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// kind names a decoded JSON value's type for messages.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
