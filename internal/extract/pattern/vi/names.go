package vi

import "strings"

// shortNames lists the short forms of a full person name: the given name
// ("Lợi" → "Lê Lợi"), the name without the family name ("Thường Kiệt",
// "Hưng Đạo"), and a title name without its title ("Hưng Đạo Vương" →
// "Hưng Đạo").
func shortNames(ws []string) []string {
	last := key(ws[len(ws)-1])
	var shorts []string
	if titleEnds[last] || last == "công" || last == "hầu" {
		if len(ws) >= 3 {
			shorts = append(shorts, strings.Join(ws[:len(ws)-1], " "))
		}
		// "Lý Thái Tổ" is also called "Thái Tổ".
		if len(ws) == 3 && (last == "tổ" || last == "tông") {
			shorts = append(shorts, strings.Join(ws[1:], " "))
		}
	} else {
		shorts = append(shorts, ws[len(ws)-1])
		if len(ws) >= 3 {
			shorts = append(shorts, strings.Join(ws[1:], " "))
		}
	}
	return shorts
}
