package relate

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// cue reads a relation from the words between two names in a sentence (X
// gap Y, X first), and optionally the words right after Y: 曹操遣张辽 is
// (曹操, 下级, 张辽). Forward says X is the relation's head. Sure cues
// state the relation outright; the others only suggest it, and their
// facts stay inferred.
type cue struct {
	gap, after *regexp.Regexp
	typ        string
	forward    bool
	sure       bool
}

func c(gap, after, typ string, forward, sure bool) cue {
	var a *regexp.Regexp
	if after != "" {
		a = regexp.MustCompile(`^(?:` + after + `)`)
	}
	return cue{regexp.MustCompile(`^(?:` + gap + `)$`), a, typ, forward, sure}
}

// zhCues are read on the normalised (simplified) sentence.
var zhCues = []cue{
	c(`之?(?:长|次|少|庶|嫡)?子|之?女`, "", "子女", true, true),
	c(`之?父|之?母`, "", "子女", false, true),
	c(`之?孙`, "", "孙", true, true),
	c(`之?(?:兄|弟|姊|妹)|同母(?:兄|弟)`, "", "同胞", true, true),
	c(`之?(?:从兄|从弟|族兄|族弟|叔父|从父|兄子|弟子)`, "", "同族", true, true),
	c(`之?(?:妻|夫人)|娶`, "", "婚恋", true, true),
	c(`遣|使|令|命|召|辟|拜|署|以|表|荐|举|擢`, `为|领|督|将|守|击|讨|攻|屯|镇`, "下级", true, true),
	c(`之?(?:将|部将|部曲|长史|司马|参军|主簿|从事|掾|谋士|帐下|麾下)`, "", "下级", true, true),
	c(`降|归|投|奔|事|从|附|依`, "", "下级", false, true),
	c(`代|继|嗣`, "", "更代", false, true),
	c(`杀|斩|诛|害|鸩|弑|擒|执|虏|攻|击|讨|伐|破|败|围|袭|拒|逐|叛|谮`, "", "消极态度倾向", true, true),
	c(`与|及|和`, `战|交战|相攻|不和|有隙|争|相拒|对垒`, "消极态度倾向", true, true),
	c(`与|及|和`, `善|友善|亲善|相善|结好|交好|和亲|为友|同谋`, "积极态度倾向", true, true),
	c(`救|援|助|迎|礼|厚|宠|信|重|德`, "", "积极态度倾向", true, false),
}

// enCues are read on the lowercased sentence.
var enCues = []cue{
	c(`, (?:the )?(?:son|daughter|child) of `, "", "parent_of", false, true),
	c(`'s (?:son|daughter|child) `, "", "parent_of", true, true),
	c(`'s (?:father|mother) `, "", "parent_of", false, true),
	c(`'s (?:brother|sister) |, (?:the )?(?:brother|sister) of `, "", "sibling_of", true, true),
	c(` married |'s (?:wife|husband) |, (?:the )?(?:wife|husband) of `, "", "spouse_of", true, true),
	c(` succeeded `, "", "succeeded", true, true),
	c(` (?:killed|attacked|defeated|besieged|fought|executed|murdered) `, "", "attacked", true, true),
	c(` (?:and|with) `, ` (?:allied|were allies|formed an alliance)`, "allied_with", true, true),
	c(` allied with `, "", "allied_with", true, true),
}

// maxGap bounds the words between two names a cue reads, in characters.
const maxGap = 24

// readCue finds the relation a sentence states between a name of x and a
// name of y, either way round: the type, whether x is the head, and
// whether the cue is sure. ok is false when none applies.
func readCue(sentence string, xs, ys []string, latin bool) (typ string, xHead, sure, ok bool) {
	s, cues := sentence, zhCues
	if latin {
		s, cues = strings.ToLower(sentence), enCues
		xs, ys = lowerAll(xs), lowerAll(ys)
	}
	try := func(as, bs []string) (string, bool, bool) {
		for _, a := range as {
			if a == "" {
				continue // would match everywhere, and never move on
			}
			for i := 0; ; {
				k := strings.Index(s[i:], a)
				if k < 0 {
					break
				}
				end := i + k + len(a)
				for _, b := range bs {
					j := strings.Index(s[end:], b)
					if b == "" || j < 0 || utf8.RuneCountInString(s[end:end+j]) > maxGap {
						continue
					}
					gap, after := s[end:end+j], s[end+j+len(b):]
					for _, cu := range cues {
						if cu.gap.MatchString(gap) && (cu.after == nil || cu.after.MatchString(after)) {
							return cu.typ, cu.forward, cu.sure
						}
					}
				}
				i = end
			}
		}
		return "", false, false
	}
	if t, fwd, sure := try(xs, ys); t != "" {
		return t, fwd, sure, true
	}
	if t, fwd, sure := try(ys, xs); t != "" {
		return t, !fwd, sure, true
	}
	return "", false, false, false
}

func lowerAll(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = strings.ToLower(x)
	}
	return out
}

// mentionsAny says whether s holds one of the names.
func mentionsAny(s string, names []string) bool {
	for _, n := range names {
		if n != "" && strings.Contains(s, n) {
			return true
		}
	}
	return false
}
