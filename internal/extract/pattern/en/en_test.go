package en

import (
	"slices"
	"strings"
	"testing"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/latin/latintest"
	"github.com/annals-project/annals/internal/schema"
)

func extractText(t testing.TB, text string, doc *extract.DocContext, sc *schema.Schema) extract.Result {
	t.Helper()
	return latintest.Extract(t, New(), "en", text, doc, sc)
}

var (
	findEntity = latintest.FindEntity
	wantEntity = latintest.WantEntity
	hasTriple  = latintest.HasTriple
	wantTriple = latintest.WantTriple
	dump       = latintest.Dump
)

func TestIdentity(t *testing.T) {
	x := New()
	if x.Name() != "pattern-en" || !strings.HasPrefix(x.Version(), "en-") {
		t.Fatalf("Name %q Version %q", x.Name(), x.Version())
	}
	var _ extract.Extractor = x
}

func TestEntitiesWithOffsets(t *testing.T) {
	text := "Zhuge Liang (courtesy name Kongming) was born in Langya Commandery in 181 AD. " +
		"Lü Bu was killed at Xiapi in 199. " +
		"The Battle of Red Cliffs took place in the 3rd century. " +
		"Chen Shou wrote the Records of the Three Kingdoms."
	r := extractText(t, text, nil, nil)
	wantEntity(t, r, "Zhuge Liang", "person", 0, 11)
	wantEntity(t, r, "Kongming", "person", 27, 35)
	wantEntity(t, r, "Langya Commandery", "place", 49, 66)
	wantEntity(t, r, "181 AD", "time", 70, 76)
	// Code points, not bytes: ü is one.
	wantEntity(t, r, "Lü Bu", "person", 78, 83)
	wantEntity(t, r, "Xiapi", "place", 98, 103)
	wantEntity(t, r, "199", "time", 107, 110)
	wantEntity(t, r, "Battle of Red Cliffs", "event", 116, 136)
	wantEntity(t, r, "3rd century", "time", 155, 166)
	wantEntity(t, r, "Chen Shou", "person", 168, 177)
	wantEntity(t, r, "Records of the Three Kingdoms", "work", 188, 217)
}

func TestEntityKinds(t *testing.T) {
	text := "Emperor Xian of Han abdicated in 220. " +
		"Imperial Chancellor Zhuge Liang returned to Chengdu. " +
		"Sun Tzu wrote *The Art of War*. " +
		"The Wei general Zhang Liao defended Hefei. " +
		"Sima Yan founded the Jin dynasty. " +
		"Liu Bei established the state of Shu Han."
	r := extractText(t, text, nil, nil)
	for _, c := range []struct{ text, typ string }{
		{"Emperor Xian of Han", "person"},
		{"220", "time"},
		{"Imperial Chancellor", "office"},
		{"Zhuge Liang", "person"},
		{"Chengdu", "place"},
		{"The Art of War", "work"},
		{"Wei", "organisation"},
		{"Zhang Liao", "person"},
		{"Hefei", "place"},
		{"Jin dynasty", "organisation"},
		{"Shu Han", "organisation"},
	} {
		if findEntity(r, c.text, c.typ) == nil {
			t.Errorf("missing %s %q; got %s", c.typ, c.text, dump(r))
		}
	}
	wantTriple(t, r, "Zhuge Liang", "held_office", "Imperial Chancellor")
	wantTriple(t, r, "Sun Tzu", "wrote", "The Art of War")
	wantTriple(t, r, "Zhang Liao", "member_of", "Wei")
	wantTriple(t, r, "Sima Yan", "founded", "Jin dynasty")
	wantTriple(t, r, "Liu Bei", "founded", "Shu Han")
}

func TestRelations(t *testing.T) {
	cases := []struct {
		text            string
		head, rel, tail string
	}{
		{"Zhuge Liang was born in Langya.", "Zhuge Liang", "born_in", "Langya"},
		{"Zhuge Liang was born in Langya in 181.", "Zhuge Liang", "born_in", "181"},
		{"Cao Cao died in Luoyang in 220.", "Cao Cao", "died_in", "Luoyang"},
		{"Cao Cao died in Luoyang in 220.", "Cao Cao", "died_in", "220"},
		{"Zhuge Liang (181–234) served Shu.", "Zhuge Liang", "died_in", "234"},
		{"Cao Pi, the eldest son of Cao Cao, became emperor.", "Cao Cao", "parent_of", "Cao Pi"},
		{"Liu Shan was the son of Liu Bei.", "Liu Bei", "parent_of", "Liu Shan"},
		{"Cao Cao's son Cao Zhi was a poet.", "Cao Cao", "parent_of", "Cao Zhi"},
		{"Sun Jian and his son Sun Ce fought Dong Zhuo.", "Sun Jian", "parent_of", "Sun Ce"},
		{"Sun Ce's brother Sun Quan ruled Wu.", "Sun Ce", "sibling_of", "Sun Quan"},
		{"Zhuge Jin was the elder brother of Zhuge Liang.", "Zhuge Jin", "sibling_of", "Zhuge Liang"},
		{"Lady Sun married Liu Bei.", "Lady Sun", "spouse_of", "Liu Bei"},
		{"Zhou Yu was married to Xiao Qiao.", "Zhou Yu", "spouse_of", "Xiao Qiao"},
		{"Lady Bian, the wife of Cao Cao, outlived him.", "Lady Bian", "spouse_of", "Cao Cao"},
		{"Zhao Yun (courtesy name Zilong) guarded the prince.", "Zhao Yun", "alias_of", "Zilong"},
		{"Jianye, also known as Jiankang, was the capital.", "Jianye", "alias_of", "Jiankang"},
		{"Sima Yi was later appointed Grand Commandant.", "Sima Yi", "held_office", "Grand Commandant"},
		{"Cao Cao appointed Xun Yu as Director of the Secretariat.", "Xun Yu", "held_office", "Director of the Secretariat"},
		{"Cao Cao became King of Wei in 216.", "Cao Cao", "held_office", "King of Wei"},
		{"Liu Bei proclaimed himself Emperor of Shu Han.", "Liu Bei", "held_office", "Emperor of Shu Han"},
		{"Cao Pi succeeded Cao Cao.", "Cao Pi", "succeeded", "Cao Cao"},
		{"Liu Bei was succeeded by Liu Shan.", "Liu Shan", "succeeded", "Liu Bei"},
		{"Guan Yu attacked Fan Castle.", "Guan Yu", "attacked", "Fan Castle"},
		{"Fancheng was besieged by Guan Yu.", "Guan Yu", "attacked", "Fancheng"},
		{"Sun Quan allied with Liu Bei against Cao Cao.", "Sun Quan", "allied_with", "Liu Bei"},
		{"Sun Quan and Liu Bei formed an alliance.", "Sun Quan", "allied_with", "Liu Bei"},
		{"Sima Yan founded the Jin dynasty.", "Sima Yan", "founded", "Jin dynasty"},
		{"Chen Shou wrote the Records of the Three Kingdoms.", "Chen Shou", "wrote", "Records of the Three Kingdoms"},
		{"Ma Chao joined Shu in 214.", "Ma Chao", "member_of", "Shu"},
		{"Zhang Jiao led the Yellow Turban Rebellion.", "Zhang Jiao", "led", "Yellow Turban Rebellion"},
		{"The Battle of Red Cliffs took place in 208.", "Battle of Red Cliffs", "happened_at", "208"},
		{"The Battle of Guandu was fought at Guandu.", "Battle of Guandu", "happened_at", "Guandu"},
		{"Zhou Yu fought at the Battle of Red Cliffs.", "Zhou Yu", "participated_in", "Battle of Red Cliffs"},
		{"Xiangyang in Jing Province fell to Wei.", "Xiangyang", "located_in", "Jing Province"},
	}
	for _, c := range cases {
		r := extractText(t, c.text, nil, nil)
		wantTriple(t, r, c.head, c.rel, c.tail)
	}
}

func TestDirection(t *testing.T) {
	r := extractText(t, "Cao Pi, the son of Cao Cao, became emperor.", nil, nil)
	if hasTriple(r, "Cao Pi", "parent_of", "Cao Cao") {
		t.Fatalf("parent_of reversed: %s", dump(r))
	}
	r = extractText(t, "Liu Bei was succeeded by Liu Shan.", nil, nil)
	if hasTriple(r, "Liu Bei", "succeeded", "Liu Shan") {
		t.Fatalf("succeeded reversed: %s", dump(r))
	}
}

func TestEvidenceIsTheSentence(t *testing.T) {
	text := "Cao Cao ruled the north. Lady Sun married Liu Bei."
	r := extractText(t, text, nil, nil)
	for _, x := range r.Triples {
		if x.Relation == "spouse_of" {
			if x.Evidence.Start != 25 || x.Evidence.End != 50 {
				t.Fatalf("evidence %+v", x.Evidence)
			}
			return
		}
	}
	t.Fatalf("no spouse_of: %s", dump(r))
}

func TestNoRelationWithoutStatement(t *testing.T) {
	for _, text := range []string{
		"Liu Bei did not marry Lady Gan.",
		"Cao Cao and Liu Bei drank wine together.",
		"Liu Bei, Guan Yu and Zhang Fei became sworn brothers.",
		"Sun Quan married off his sister to secure the alliance.",
		"Cao Cao wrote to Sun Quan.",
	} {
		r := extractText(t, text, nil, nil)
		for _, x := range r.Triples {
			if x.Relation == "spouse_of" || x.Relation == "sibling_of" || x.Relation == "wrote" {
				t.Errorf("%q: unexpected %s", text, dump(r))
			}
		}
	}
	r := extractText(t, "Cao Cao and Liu Bei drank wine together.", nil, nil)
	if len(r.Triples) != 0 {
		t.Errorf("unexpected triples: %s", dump(r))
	}
}

func TestSentenceInitialWords(t *testing.T) {
	text := "During the Han dynasty, Cao Cao rose to power. However, Liu Bei escaped. " +
		"Later generations admired him. Historians praised Zhuge Liang. The general marched north. " +
		"Many scholars wrote commentaries. He died in 220."
	r := extractText(t, text, nil, nil)
	for _, w := range []string{"During", "However", "Later", "Historians", "The", "Many", "He", "general"} {
		for _, e := range r.Entities {
			if strings.HasPrefix(e.Text, w+" ") || e.Text == w {
				t.Errorf("false entity %q (%s)", e.Text, e.Type)
			}
		}
	}
	for _, n := range []string{"Cao Cao", "Liu Bei", "Zhuge Liang"} {
		if findEntity(r, n, "person") == nil {
			t.Errorf("missing %s: %s", n, dump(r))
		}
	}
}

func TestShortNamesThroughDoc(t *testing.T) {
	doc := extract.NewDocContext("sgz", "Zhuge Liang", nil)
	extractText(t, "Zhuge Liang (courtesy name Kongming) was born in Langya.", doc, nil)
	if doc.Names["Zhuge Liang"] != "Zhuge Liang" || doc.Types["Zhuge Liang"] != "person" {
		t.Fatalf("full name not recorded: %v %v", doc.Names, doc.Types)
	}
	r := extractText(t, "Liang died at Wuzhang Plains in 234.", doc, nil)
	e := findEntity(r, "Liang", "person")
	if e == nil || e.Name != "Zhuge Liang" {
		t.Fatalf("Liang not resolved: %s", dump(r))
	}
	wantTriple(t, r, "Zhuge Liang", "died_in", "234")
	r = extractText(t, "Kongming admired Guan Zhong.", doc, nil)
	if e := findEntity(r, "Kongming", "person"); e == nil || e.Name != "Zhuge Liang" {
		t.Fatalf("courtesy name not resolved: %s", dump(r))
	}

	// A first name resolves too, but a surname shared by two people does not.
	doc = extract.NewDocContext("x", "", nil)
	extractText(t, "Marco Polo was born in Venice. Sun Quan and Sun Ce were brothers.", doc, nil)
	r = extractText(t, "Marco travelled to China. Sun ruled the east.", doc, nil)
	if e := findEntity(r, "Marco", "person"); e == nil || e.Name != "Marco Polo" {
		t.Fatalf("Marco not resolved: %s", dump(r))
	}
	for _, e := range r.Entities {
		if e.Text == "Sun" && e.Name != "" {
			t.Fatalf("ambiguous Sun resolved to %s", e.Name)
		}
	}
}

func TestSchemaFiltering(t *testing.T) {
	latintest.SchemaFiltering(t, New(), "en", "Zhuge Liang was born in Langya in 181. Lady Sun married Liu Bei.", "Zhuge Liang", "Langya")
}

func TestDeduplication(t *testing.T) {
	r := extractText(t, "Zhuge Liang was born in Langya in 181.", nil, nil)
	seen := map[string]bool{}
	for _, x := range r.Triples {
		k := x.Head.Text + x.Relation + x.Tail.Text
		if seen[k] {
			t.Fatalf("duplicate %s", k)
		}
		seen[k] = true
	}
	n := 0
	for _, x := range r.Triples {
		if x.Relation == "born_in" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("want 2 born_in, got %s", dump(r))
	}
}

func TestEmptyAndCancelled(t *testing.T) {
	latintest.EmptyAndCancelled(t, New(), "en", "   ", "Cao Cao died in 220.")
}

func FuzzExtract(f *testing.F) {
	latintest.Fuzz(f, New(), "en", slices.Concat(samples, []string{
		"“Chu Shi Biao” (227) *x* _y_ A.D. c. 155 – 220 Lü’s 3rd century",
		"(((( ,,, ’s 's A. B. C. Emperor of of of",
	})...)
}

// samples are short passages about the Three Kingdoms period.
var samples = []string{
	"Zhuge Liang (courtesy name Kongming) was born in Langya Commandery in 181 AD. He served Liu Bei as Imperial Chancellor of Shu Han.",
	"Cao Cao's son Cao Pi forced Emperor Xian of Han to abdicate in 220, and founded the state of Cao Wei. The Battle of Red Cliffs took place in 208.",
	"Sun Quan allied with Liu Bei against Cao Cao. Chen Shou wrote the Records of the Three Kingdoms in the 3rd century.",
	"Guan Yu and his brother Zhang Fei followed Liu Bei to Chang'an. Lü Bu was killed at Xiapi in 199.",
	"Lady Sun married Liu Bei. Sima Yi was appointed Grand Commandant by Cao Rui. Liu Shan succeeded Liu Bei as Emperor of Shu.",
	"Guan Yu attacked Fan Castle and besieged Cao Ren. Later, Kongming died at Wuzhang Plains in 234.",
	"The Wei general Zhang Liao defended Hefei. During the Han dynasty, Cao Cao rose to power.",
	"Sun Ce, the eldest son of Sun Jian, conquered Jiangdong. Sun Ce was succeeded by his brother Sun Quan.",
	"The Yellow Turban Rebellion broke out in 184. Zhang Jiao led the Yellow Turban Rebellion.",
	"Cao Cao defeated Yuan Shao at the Battle of Guandu in 200. Jianye, also known as Jiankang, was the capital of Wu.",
}

func BenchmarkExtract(b *testing.B) {
	latintest.Bench(b, New(), "en", samples)
}

func TestClauseLevelPatterns(t *testing.T) {
	text := "Born in Yangdu County, Langya Commandery, Zhuge Liang lost his parents early. " +
		"In 221, Liu Bei declared himself emperor and appointed Zhuge Liang as his chancellor. " +
		"Liu Bei died at Baidicheng in 223, and his son Liu Shan succeeded him. " +
		"Zhuge Liang launched five Northern Expeditions against Cao Wei between 228 and 234. " +
		"Sima Yi, a general of Cao Wei, opposed him. " +
		"Cao Cao attacked Lü Bu and his son. " +
		"Napoleon Bonaparte married Josephine de Beauharnais."
	r := extractText(t, text, nil, nil)
	wantTriple(t, r, "Zhuge Liang", "born_in", "Yangdu County")
	wantTriple(t, r, "Zhuge Liang", "born_in", "Langya Commandery")
	wantTriple(t, r, "Liu Bei", "held_office", "emperor")
	wantTriple(t, r, "Zhuge Liang", "held_office", "chancellor")
	wantTriple(t, r, "Liu Bei", "parent_of", "Liu Shan")
	wantTriple(t, r, "Liu Shan", "succeeded", "Liu Bei")
	wantTriple(t, r, "Zhuge Liang", "led", "Northern Expeditions")
	wantTriple(t, r, "Zhuge Liang", "attacked", "Cao Wei")
	wantTriple(t, r, "Northern Expeditions", "happened_at", "234")
	wantTriple(t, r, "Sima Yi", "member_of", "Cao Wei")
	// prose's labels, not a word list, find these names.
	wantTriple(t, r, "Napoleon Bonaparte", "spouse_of", "Josephine de Beauharnais")
	for _, x := range r.Triples {
		if x.Relation == "parent_of" && x.Head.Text == "Cao Cao" {
			t.Errorf("his must not reach past another person: %s", dump(r))
		}
	}
}
