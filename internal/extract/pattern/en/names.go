package en

import "strings"

// shortNames lists the words a full person name is shortened to: its first
// and its last. Titles are not names: "Lady Sun" is found by "Sun", not
// "Lady".
func shortNames(ws []string) []string {
	for len(ws) > 0 && (regnalTitles[strings.ToLower(ws[0])] || honorifics[strings.ToLower(ws[0])]) {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return nil
	}
	return []string{ws[0], ws[len(ws)-1]}
}
