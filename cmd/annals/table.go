package main

import (
	"strings"

	"github.com/mattn/go-runewidth"
)

// pad fills s with spaces to width columns of a terminal, where a Chinese
// character takes two: %-*s for the columns of a table. A longer s is
// left whole.
func pad(s string, width int) string {
	w := runewidth.StringWidth(s)
	if w >= width {
		return s
	}
	return s + strings.Repeat(" ", width-w)
}

// widest is the width in terminal columns of the widest text that text
// gives for items, and at least least.
func widest[T any](items []T, least int, text func(T) string) int {
	w := least
	for _, it := range items {
		w = max(w, runewidth.StringWidth(text(it)))
	}
	return w
}

// displayWidth is the width of s in terminal columns.
func displayWidth(s string) int { return runewidth.StringWidth(s) }
