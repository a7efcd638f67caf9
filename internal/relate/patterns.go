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
	// A person and a place.
	c(`(?:者)?，(?:字\p{Han}{1,3}，)?\p{Han}{0,4}`, `人`, "籍贯", true, true),
	c(`卒于|薨于|死于|殁于|卒|薨|殁`, "", "卒于", true, true),
	c(`屯|镇|守|驻|戍|领|督|牧`, "", "辖", true, true),
	c(`取|拔|克|定|据|陷|屠`, "", "占", true, true),
	c(`至|到|诣|还|入|过|幸|巡|如`, "", "访", true, true),
	c(`居|住|寓|家于|徙`, "", "居", true, true),
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
	c(` was born (?:in|at) `, "", "born_in", true, true),
	c(` died (?:in|at) `, "", "died_in", true, true),
	c(` (?:is|was) (?:located |situated )?in `, "", "located_in", true, true),
}

// maxGap bounds the words between two names a cue reads, in characters.
const maxGap = 24

// readCue finds the relation a sentence states between a name of x and a
// name of y, either way round: the type, whether x is the head, and
// whether the cue is sure. ok is false when none applies.
//
// accept, when set, sees each reading: it may turn it into another (an
// attack on a place is 攻, not enmity) or refuse it (a relation whose ends
// are not of the types it joins), and the search goes on.
func readCue(sentence string, xs, ys []string, latin bool, accept acceptFunc) (typ string, xHead, sure, ok bool) {
	s, cues := sentence, zhCues
	if latin {
		s, cues = strings.ToLower(sentence), enCues
		xs, ys = lowerAll(xs), lowerAll(ys)
	}
	if accept == nil {
		accept = func(typ string, aHead bool) (string, bool, bool) { return typ, aHead, true }
	}
	// try reads as … bs, a first; the direction it returns is a's.
	try := func(as, bs []string, aIsX bool) (string, bool, bool) {
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
						if !cu.gap.MatchString(gap) || cu.after != nil && !cu.after.MatchString(after) {
							continue
						}
						// accept sees the reading from x's side.
						xHead := cu.forward == aIsX
						if t, h, ok := accept(cu.typ, xHead); ok {
							return t, h == aIsX, cu.sure
						}
					}
				}
				i = end
			}
		}
		return "", false, false
	}
	if t, fwd, sure := try(xs, ys, true); t != "" {
		return t, fwd, sure, true
	}
	if t, fwd, sure := try(ys, xs, false); t != "" {
		return t, !fwd, sure, true
	}
	return "", false, false, false
}

// acceptFunc sees a relation read between x and y, and whether x is its
// head, and returns it as kept (possibly turned into another), or refuses
// it.
type acceptFunc func(typ string, xHead bool) (string, bool, bool)

// typedAccept keeps the readings between an entity of type xType and one
// of type yType that fit their types.
func typedAccept(xType, yType string) acceptFunc {
	return func(typ string, xHead bool) (string, bool, bool) {
		head, tail := xType, yType
		if !xHead {
			head, tail = tail, head
		}
		// Serving a place or a state is fleeing to it: 奔/投 read the
		// other way round.
		if typ == "下级" && (isPlace(head) || isGroup(head)) && isPerson(tail) {
			typ, xHead, head, tail = "逃奔", !xHead, tail, head
		}
		t, ok := fitTypes(typ, head, tail)
		return t, xHead, ok
	}
}

// Entity types as the two schemas name them.
func isPerson(t string) bool { return t == "人物" || t == "person" }
func isPlace(t string) bool  { return t == "地点" || t == "place" }
func isGroup(t string) bool  { return t == "社会集团" || t == "organisation" }

// fitTypes keeps a relation whose ends are of the types it joins
// (zh-history's domain → range), turning enmity towards a place into 攻
// and serving a place or a state into fleeing to it (逃奔). Unknown types
// and the general schema's relations pass.
func fitTypes(typ, headType, tailType string) (string, bool) {
	known := headType != "" && tailType != ""
	actor := isPerson(headType) || isGroup(headType)
	switch typ {
	case "子女", "孙", "同胞", "同族", "婚恋", "别称", "更代", "上级":
		return typ, !known || isPerson(headType) && isPerson(tailType)
	case "下级":
		return typ, !known || actor && isPerson(tailType)
	case "消极态度倾向":
		if isPlace(tailType) && actor {
			return "攻", true
		}
		return typ, !known || actor && (isPerson(tailType) || isGroup(tailType))
	case "积极态度倾向":
		return typ, !known || actor && (isPerson(tailType) || isGroup(tailType))
	case "籍贯", "卒于", "居", "访":
		return typ, !known || isPerson(headType) && isPlace(tailType)
	case "辖", "占":
		return typ, !known || actor && isPlace(tailType)
	case "攻":
		return typ, !known || actor && (isPlace(tailType) || isGroup(tailType))
	case "逃奔":
		return typ, !known || isPerson(headType) && (isPlace(tailType) || isGroup(tailType))
	}
	return typ, true
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
