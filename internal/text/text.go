// Package text decodes raw files into text, normalises traditional to
// simplified characters with a map back to the original offsets, detects the
// language and splits sentences. Offsets are Unicode code points.
package text

import "errors"

// Errors Decode wraps; callers skip the file with a warning that names it.
var (
	ErrEmpty       = errors.New("empty file")
	ErrBinary      = errors.New("binary file")
	ErrUndecodable = errors.New("undecodable text")
)

// Language codes.
const (
	Classical  = "lzh" // classical (literary) Chinese
	Modern     = "zh"  // modern Chinese
	Vietnamese = "vi"
	English    = "en"
	Unknown    = "und"
)

// IsChinese reports whether lang is classical or modern Chinese.
func IsChinese(lang string) bool { return lang == Classical || lang == Modern }
