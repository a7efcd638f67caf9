package modelfile

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

type info struct {
	Kind string `json:"kind"`
}

func write(t *testing.T, extra func(*Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := Create(&buf, "annals-test 1\n", info{"x"})
	if err != nil {
		t.Fatal(err)
	}
	w.Uint64(1 << 40)
	w.Uvarint(300)
	w.Float32(-1.5)
	if extra != nil {
		extra(w)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestRoundTrip(t *testing.T) {
	var got info
	r, err := Open(bytes.NewReader(write(t, nil)), "annals-test 1\n", "test model", &got)
	if err != nil || got.Kind != "x" {
		t.Fatalf("header %+v, %v", got, err)
	}
	a, err1 := r.Uint64()
	b, err2 := r.Uvarint()
	c, err3 := r.Float32()
	if a != 1<<40 || b != 300 || c != -1.5 || err1 != nil || err2 != nil || err3 != nil {
		t.Errorf("read back %d %d %v (%v %v %v)", a, b, c, err1, err2, err3)
	}
	if err := r.End(); err != nil {
		t.Errorf("end: %v", err)
	}
}

func TestBadFilesSayWhy(t *testing.T) {
	var plain bytes.Buffer
	zw := gzip.NewWriter(&plain)
	zw.Write([]byte("something else\n{}\n"))
	zw.Close()
	good := write(t, nil)
	for name, c := range map[string]struct {
		data []byte
		want string
	}{
		"not gzip":    {[]byte("text"), "not an annals test model"},
		"other magic": {plain.Bytes(), `no "annals-test 1" header`},
		"truncated":   {good[:len(good)-10], ""},
		"data after":  {write(t, func(w *Writer) { w.Uvarint(7) }), "data after the model"},
	} {
		var got info
		r, err := Open(bytes.NewReader(c.data), "annals-test 1\n", "test model", &got)
		if err == nil {
			r.Uint64()
			r.Uvarint()
			r.Float32()
			err = r.End()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", name, err, c.want)
		}
	}
}
