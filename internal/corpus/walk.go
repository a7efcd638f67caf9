// Package corpus reads the files of a corpus into documents and cuts
// documents into section-aware chunks. Offsets are Unicode code points into
// the decoded text.
package corpus

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/annals-project/annals/internal/text"
)

// DefaultMaxBytes is the size above which a file is skipped.
const DefaultMaxBytes int64 = 64 << 20

// Doc is one document read from the corpus: a text file, or one record of a
// JSON file.
type Doc struct {
	// Key is the path relative to the walked root, slash-separated (the base
	// name for a file given directly); "FILE#N" for the Nth record (1-based)
	// of a JSON file.
	Key string
	// Title is the last component of Section.
	Title string
	// Section is the section path: the folders below the root and the file
	// name without extension (a file named text.* adds nothing). A JSON
	// record uses its non-empty source, title and chapter instead when it
	// has any.
	Section  []string
	Format   string // "txt", "md" or "json"
	Text     string // decoded text
	Encoding string
	Size     int64 // bytes of the file on disk
	ModTime  time.Time
}

// Warning reports a file or a JSON record that was skipped.
type Warning struct {
	Path string // file path as walked; "PATH#N" for a JSON record
	Err  error
}

func (w Warning) Error() string { return w.Path + ": skipped: " + w.Err.Error() }

// Unwrap gives the reason, so that errors.Is sees text.ErrBinary and the like.
func (w Warning) Unwrap() error { return w.Err }

// WalkOptions tunes a walk.
type WalkOptions struct {
	// MaxBytes skips larger files with a warning; 0 means DefaultMaxBytes,
	// a negative value means no limit.
	MaxBytes int64
	// Within, when set, confines the walk: a symbolic link is followed
	// only if its target lies under one of these folders (real paths).
	// A server indexing on request sets it so that no link escapes.
	Within []string
}

// Errors carried by warnings.
var (
	ErrTooLarge      = errors.New("file too large")
	ErrSymlinkLoop   = errors.New("symbolic link loop")
	ErrOutside       = errors.New("symbolic link leads outside the allowed folders")
	ErrMalformed     = errors.New("malformed JSON")
	ErrNoText        = errors.New("record has no text")
	ErrNotAnObject   = errors.New("record is not a JSON object")
	ErrTextNotString = errors.New(`record "text" is not a string`)
)

// FormatOf gives the format of a file name by its extension: "txt", "md",
// "json", or "" when the corpus does not read such files in a folder.
func FormatOf(name string) string {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".txt":
		return "txt"
	case ".md", ".markdown":
		return "md"
	case ".json", ".jsonl":
		return "json"
	}
	return ""
}

// Walk reads every supported file under root (a folder or a single file) in
// sorted order and calls fn with each document, using the default options.
// Unreadable files are skipped with a warning; the walk stops only when
// root cannot be read, ctx is done or fn fails. fn may return
// filepath.SkipAll to stop early without an error.
func Walk(ctx context.Context, root string, fn func(Doc) error) ([]Warning, error) {
	return WalkWith(ctx, root, WalkOptions{}, fn)
}

// WalkWith is Walk with options.
func WalkWith(ctx context.Context, root string, opts WalkOptions, fn func(Doc) error) ([]Warning, error) {
	return walk(ctx, root, opts, fn, false)
}

// Count is how many documents a walk of root with opts would read, found
// quickly: text files are counted, not read, so that one Walk would skip as
// unreadable counts too. Only JSON files are read, for their records.
func Count(ctx context.Context, root string, opts WalkOptions) (int, error) {
	n := 0
	_, err := walk(ctx, root, opts, func(Doc) error { n++; return nil }, true)
	return n, err
}

func walk(ctx context.Context, root string, opts WalkOptions, fn func(Doc) error, counting bool) ([]Warning, error) {
	if opts.MaxBytes == 0 {
		opts.MaxBytes = DefaultMaxBytes
	}
	w := &walker{ctx: ctx, opts: opts, fn: fn, counting: counting}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("corpus: walk %s: %w", root, err)
	}
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("corpus: walk: %w", err)
	}
	if info.IsDir() {
		w.rootName = dirName(root)
		entries, err := os.ReadDir(root)
		if err != nil {
			return nil, fmt.Errorf("corpus: walk: %w", err)
		}
		err = w.entries(root, "", entries, []os.FileInfo{info})
		return w.finish(err)
	}
	w.rootName = dirName(filepath.Dir(root))
	return w.finish(w.file(root, filepath.Base(root), info, true))
}

// ReadFile reads one file (or folder) with the default options and returns
// its documents.
func ReadFile(ctx context.Context, path string) ([]Doc, []Warning, error) {
	var docs []Doc
	warns, err := Walk(ctx, path, func(d Doc) error {
		docs = append(docs, d)
		return nil
	})
	return docs, warns, err
}

type walker struct {
	ctx      context.Context
	opts     WalkOptions
	fn       func(Doc) error
	rootName string // name of the folder holding the root, for text.* files at the top
	warns    []Warning
	// counting walks without reading text files: each is one document,
	// and fn sees a Doc with its key only. JSON files are still read, for
	// their records.
	counting bool
}

// errStop ends a walk that fn asked to stop.
var errStop = errors.New("stop")

func (w *walker) finish(err error) ([]Warning, error) {
	if err == errStop {
		err = nil
	}
	return w.warns, err
}

// inside checks that a link's target is within the allowed folders.
func (w *walker) inside(link string) error {
	if len(w.opts.Within) == 0 {
		return nil
	}
	real, err := filepath.EvalSymlinks(link)
	if err != nil {
		return fmt.Errorf("follow link: %w", err)
	}
	if !Inside(real, w.opts.Within) {
		return ErrOutside
	}
	return nil
}

// sizeOf writes a number of bytes, in the binary unit that reads best
// beside it from 1 KiB up: "70,000,000 bytes (66.8 MiB)".
func sizeOf(n int64) string {
	var b strings.Builder
	b.WriteString(text.Thousands(n))
	b.WriteString(" bytes")
	units := []string{"KiB", "MiB", "GiB", "TiB"}
	for i := len(units) - 1; i >= 0; i-- {
		if u := int64(1) << (10 * (i + 1)); n >= u {
			v := strconv.FormatFloat(float64(n)/float64(u), 'f', 1, 64)
			v = strings.TrimSuffix(v, ".0")
			fmt.Fprintf(&b, " (%s %s)", v, units[i])
			break
		}
	}
	return b.String()
}

// Inside says whether path lies in (or is) one of the folders. Both are
// compared as given: resolve links first where that matters.
func Inside(path string, folders []string) bool {
	for _, f := range folders {
		rel, err := filepath.Rel(f, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

func (w *walker) warn(path string, err error) {
	w.warns = append(w.warns, Warning{Path: path, Err: err})
}

// entries walks one folder's sorted entries; ancestors holds the folders on
// the way down, so a link back to one of them is not followed.
func (w *walker) entries(dir, rel string, entries []os.DirEntry, ancestors []os.FileInfo) error {
	for _, e := range entries {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("corpus: walk %s: %w", dir, err)
		}
		name := e.Name()
		if strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(dir, name)
		r := name
		if rel != "" {
			r = rel + "/" + name
		}
		var info os.FileInfo
		var err error
		if e.Type()&fs.ModeSymlink != 0 {
			if err := w.inside(p); err != nil {
				w.warn(p, err)
				continue
			}
			info, err = os.Stat(p)
		} else {
			info, err = e.Info()
		}
		if err != nil {
			w.warn(p, fmt.Errorf("stat: %w", err))
			continue
		}
		if info.IsDir() {
			if isAncestor(info, ancestors) {
				w.warn(p, ErrSymlinkLoop)
				continue
			}
			sub, err := os.ReadDir(p)
			if err != nil {
				w.warn(p, fmt.Errorf("read folder: %w", err))
				continue
			}
			if err := w.entries(p, r, sub, append(ancestors[:len(ancestors):len(ancestors)], info)); err != nil {
				return err
			}
			continue
		}
		if !info.Mode().IsRegular() || FormatOf(name) == "" {
			continue
		}
		if err := w.file(p, r, info, false); err != nil {
			return err
		}
	}
	return nil
}

func isAncestor(info os.FileInfo, ancestors []os.FileInfo) bool {
	for _, a := range ancestors {
		if os.SameFile(a, info) {
			return true
		}
	}
	return false
}

// file reads one file and hands its documents to fn. Problems with the file
// become warnings; only ctx and fn errors are returned.
func (w *walker) file(path, rel string, info os.FileInfo, direct bool) error {
	if err := w.ctx.Err(); err != nil {
		return fmt.Errorf("corpus: read %s: %w", path, err)
	}
	format := FormatOf(rel)
	if format == "" {
		if !direct {
			return nil
		}
		format = "txt" // named explicitly: read whatever it is as text
	}
	if w.opts.MaxBytes > 0 && info.Size() > w.opts.MaxBytes {
		w.warn(path, fmt.Errorf("%w: %s, over the limit of %s (index.max_file_size in annals.yaml raises it)",
			ErrTooLarge, sizeOf(info.Size()), sizeOf(w.opts.MaxBytes)))
		return nil
	}
	if w.counting && format != "json" {
		return w.emit(Doc{Key: rel, Format: format})
	}
	txt, enc, err := readText(path)
	if err != nil {
		w.warn(path, err)
		return nil
	}
	base := Doc{
		Key:      rel,
		Section:  sectionOf(rel, w.rootName),
		Format:   format,
		Encoding: enc,
		Size:     info.Size(),
		ModTime:  info.ModTime(),
	}
	if format != "json" {
		base.Text = txt
		base.Title = base.Section[len(base.Section)-1]
		return w.emit(base)
	}
	recs, errs := parseRecords(txt)
	for _, e := range errs {
		if e.N == 0 {
			w.warn(path, e.Err)
		} else {
			w.warn(fmt.Sprintf("%s#%d", path, e.N), e.Err)
		}
	}
	for _, r := range recs {
		if err := w.ctx.Err(); err != nil {
			return fmt.Errorf("corpus: read %s: %w", path, err)
		}
		d := base
		d.Key = fmt.Sprintf("%s#%d", rel, r.N)
		d.Text = r.Text
		if s := r.section(); len(s) > 0 {
			d.Section = s
		} else {
			d.Section = append([]string(nil), base.Section...)
		}
		d.Title = d.Section[len(d.Section)-1]
		if err := w.emit(d); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) emit(d Doc) error {
	err := w.fn(d)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, filepath.SkipAll):
		return errStop
	}
	return fmt.Errorf("corpus: %s: %w", d.Key, err)
}

// sectionOf turns a slash-separated relative path into a section path: the
// folders, then the file name without its extension unless it is text.*. A
// text.* file with no folder above it takes the name of the folder holding
// it, so that no document goes without a section.
func sectionOf(rel, holder string) []string {
	parts := strings.Split(rel, "/")
	last := parts[len(parts)-1]
	stem := strings.TrimSuffix(last, filepath.Ext(last))
	sec := make([]string, 0, len(parts))
	sec = append(sec, parts[:len(parts)-1]...)
	if !strings.EqualFold(stem, "text") {
		sec = append(sec, stem)
	}
	if len(sec) == 0 {
		if holder != "" {
			sec = append(sec, holder)
		} else {
			sec = append(sec, stem)
		}
	}
	return sec
}

// dirName is the base name of a folder, "" when it has none (the file
// system root).
func dirName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	b := filepath.Base(abs)
	if b == "." || b == string(filepath.Separator) || b == "" {
		return ""
	}
	return b
}
