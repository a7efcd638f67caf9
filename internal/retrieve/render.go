package retrieve

import (
	"strings"

	"github.com/annals-project/annals/internal/kg"
	"github.com/annals-project/annals/internal/text"
)

// zhTriple phrases a zh-history fact as a sentence (seed 000 §4.1: a
// model reads "曹操的子女是曹丕" better than a bare triple): H and T stand
// for the head and the tail.
var zhTriple = map[string]string{
	"子女": "H的子女是T", "孙": "H的孙辈是T", "同胞": "H与T是同胞", "同族": "H与T同族", "婚恋": "H的配偶是T",
	"别称": "H又称T", "任官": "H曾任T", "封爵": "H受封T", "下级": "T是H的部下", "上级": "T是H的上级",
	"更代": "T接替了H", "所属团体": "H属于T", "积极态度倾向": "H亲近T", "消极态度倾向": "H与T为敌",
	"攻": "H进攻T", "占": "H占据T", "辖": "H管辖T", "访": "H到过T", "逃奔": "H投奔T", "居": "H居于T",
	"籍贯": "H是T人", "卒于": "H死于T", "出生时间": "H生于T", "死亡时间": "H卒于T", "开始时间": "H始于T",
}

// RenderTriple phrases a fact as a sentence in the question's language
// where a phrasing is known, else as "head relation tail".
func RenderTriple(r kg.Relation, lang string) string {
	if p, ok := zhTriple[r.Type]; ok && (text.IsChinese(lang) || lang == text.Unknown) {
		var b strings.Builder
		b.Grow(len(p) + len(r.Head) + len(r.Tail))
		for _, c := range p {
			switch c {
			case 'H':
				b.WriteString(r.Head)
			case 'T':
				b.WriteString(r.Tail)
			default:
				b.WriteRune(c)
			}
		}
		return b.String()
	}
	return r.Head + " " + strings.ReplaceAll(r.Type, "_", " ") + " " + r.Tail
}
