package retrieve

import "testing"

func TestClassifySubjects(t *testing.T) {
	for _, tt := range []struct {
		q, typ, subject, label, gender string
		fromTail                       bool
	}{
		{"姜维的父亲是谁？", QKin, "姜维", "父亲", "男", true},
		{"谁是姜维的母亲？", QKin, "姜维", "母亲", "女", true},
		{"亮的儿子是谁？", QKin, "亮", "儿子", "男", false},
		{"孙权有几个儿子？", QKin, "孙权", "儿子", "男", false},
		{"孙休是谁的儿子？", QKin, "孙休", "父亲", "男", true},
		{"卞太后是谁的妻子？", QKin, "卞太后", "丈夫", "男", false},
		{"曹操是谁的丈夫？", QKin, "曹操", "妻子", "女", false},
		{"曹操的子女有哪些？", QKin, "曹操", "子女", "", false},
		{"孙权的哥哥是谁？", QKin, "孙权", "兄", "男", false},
		{"卫青的姐姐是谁？", QKin, "卫青", "姐姐", "女", false},
		{"诸葛亮的岳父是谁？", QKin, "诸葛亮", "亲属", "", false}, // kin no relation holds: refused, not read as a father
		{"后主是谁？", QIdentity, "后主", "身份", "", false},
		{"太祖武皇帝是谁？", QIdentity, "太祖武皇帝", "身份", "", false},
		{"孟德是谁的字？", QWhoseName, "孟德", "字", "", true},
		{"诸葛亮字什么？", QCourtesy, "诸葛亮", "字", "", false},
		{"曹操的谥号是什么？", QCourtesy, "曹操", "谥号", "", false},
		{"项羽又称什么？", QCourtesy, "项羽", "别称", "", false},
		{"谁杀了董卓？", QKiller, "董卓", "杀", "", true},
		{"关羽被谁所杀？", QKiller, "关羽", "杀", "", true},
		{"谁刺杀了吴王僚？", QKiller, "吴王僚", "杀", "", true},
		{"关羽死于哪一年？", QDeath, "关羽", "卒年", "", false},
		{"孔明卒于何处？", QDeathPlace, "孔明", "卒地", "", false},
		{"孙坚是怎么死的？", QDeathHow, "孙坚", "死因", "", false},
		{"刘备是哪里人？", QNative, "刘备", "籍贯", "", false},
		{"张良被封为什么？", QTitle, "张良", "封爵", "", false},
		{"诸葛亮担任过什么官职？", QOffice, "诸葛亮", "官职", "", false},
		{"刘备投奔过谁？", QFled, "刘备", "投奔", "", false},
		{"张骞到过哪里？", QVisit, "张骞", "到过", "", false},
		{"韩信攻打过哪里？", QAttacked, "韩信", "攻", "", false},
		{"请问司马懿曾经担任什么官职？", QOffice, "司马懿", "官职", "", false},
		{"赤壁之战在哪一年？", QEventTime, "赤壁之战", "时间", "", false},
		{"《三国志·蜀书》中的“先主”是谁？", QIdentity, "先主", "身份", "", false},
		{"在《史记》里，平原君是谁？", QIdentity, "平原君", "身份", "", false},
		{"官渡之战发生在何地？", QEventPlace, "官渡之战", "地点", "", false},
		{"官渡之战谁胜？", QWinner, "官渡之战", "胜", "", true},
		{"谁参加了赤壁之战？", QFought, "赤壁之战", "参与", "", true},
		{"赤壁之战有谁参与？", QFought, "赤壁之战", "参与", "", true},
		{"官渡之战谁参战？", QFought, "官渡之战", "参与", "", true},
		{"曹操在哪一年去世？", QDeath, "曹操", "卒年", "", false},
	} {
		typ, ask := Classify(tt.q)
		if typ != tt.typ || ask == nil {
			t.Errorf("%s: type %q (ask %v), want %q", tt.q, typ, ask, tt.typ)
			continue
		}
		if ask.Subject != tt.subject || ask.Label != tt.label || ask.Gender != tt.gender || ask.FromTail != tt.fromTail {
			t.Errorf("%s: subject %q label %q gender %q from tail %v; want %q %q %q %v", tt.q, ask.Subject, ask.Label, ask.Gender, ask.FromTail, tt.subject, tt.label, tt.gender, tt.fromTail)
		}
	}
	for _, q := range []string{"为什么诸葛亮要北伐？", "赤壁在哪里？"} {
		if _, ask := Classify(q); ask != nil {
			t.Errorf("%s: typed as %+v, want untyped", q, ask)
		}
	}
}
