package main

import (
	"encoding"
	"encoding/json"
	"reflect"
)

// emptyLists returns v with every nil slice in it, at any depth, made
// empty, so that --json prints a list as [] and never as null. Values that
// marshal themselves (json.RawMessage, time.Time …) and byte slices are
// left as they are; v itself may be changed in place.
func emptyLists(v any) any {
	if v == nil {
		return v
	}
	out := fillSlices(reflect.ValueOf(v), map[uintptr]bool{})
	if !out.IsValid() {
		return v
	}
	return out.Interface()
}

var (
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// selfMarshaling reports whether values of t marshal by a method of their
// own, which sees the value as it is.
func selfMarshaling(t reflect.Type) bool {
	if t.Implements(marshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
}

// fillSlices returns v with its nil slices made empty: v itself, changed
// in place where it can be set, else a changed copy. seen holds the
// pointers already visited, against cycles.
func fillSlices(v reflect.Value, seen map[uintptr]bool) reflect.Value {
	if !v.IsValid() {
		return v
	}
	t := v.Type()
	if t.Kind() != reflect.Interface && t.Kind() != reflect.Pointer && selfMarshaling(t) {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return v
		}
		seen[v.Pointer()] = true
		e := v.Elem()
		if n := fillSlices(e, seen); n != e && e.CanSet() {
			e.Set(n)
		}
		return v
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := fillSlices(v.Elem(), seen)
		w := reflect.New(t).Elem()
		w.Set(n)
		return w
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return v // []byte marshals as base64; nil and empty differ on purpose
		}
		if v.IsNil() {
			return reflect.MakeSlice(t, 0, 0)
		}
		for i := range v.Len() {
			el := v.Index(i)
			if n := fillSlices(el, seen); n != el {
				el.Set(n)
			}
		}
		return v
	case reflect.Array:
		c := copyOf(v)
		for i := range c.Len() {
			el := c.Index(i)
			if n := fillSlices(el, seen); n != el {
				el.Set(n)
			}
		}
		return c
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		iter := v.MapRange()
		for iter.Next() {
			val := iter.Value()
			if n := fillSlices(val, seen); n != val {
				v.SetMapIndex(iter.Key(), n)
			}
		}
		return v
	case reflect.Struct:
		c := copyOf(v)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			fv := c.Field(i)
			if !fv.CanSet() {
				continue
			}
			if n := fillSlices(fv, seen); n != fv {
				fv.Set(n)
			}
		}
		return c
	}
	return v
}

// copyOf is v when it can be set in place, else a settable copy of it.
func copyOf(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
