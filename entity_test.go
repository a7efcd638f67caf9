package annals

import (
	"context"
	"reflect"
	"testing"

	"github.com/annals-project/annals/internal/kg"
)

// A name the texts state as another kind (字羽) is not also a given name.
func TestGivenNamesYieldToStatedKinds(t *testing.T) {
	attrs := map[string][]string{"名": {"籍", "羽"}, "字": {"羽"}, "variant": {"籍"}}
	dropStatedElsewhere(attrs)
	if want := []string{"籍"}; !reflect.DeepEqual(attrs["名"], want) {
		t.Errorf("名 %v, want %v", attrs["名"], want)
	}
	attrs = map[string][]string{"名": {"羽"}, "字": {"羽"}}
	dropStatedElsewhere(attrs)
	if _, ok := attrs["名"]; ok {
		t.Errorf("an empty 名 is kept: %v", attrs)
	}
}

// A death dated in the person's own chapter outweighs deaths that passing
// mentions in other chapters seem to give him.
func TestOwnChapterDatesALife(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexTexts(t, map[string]string{
		"曹操传.txt": "曹操，字孟德，沛国谯人也。操少机警。操以议郎征。操遂东。操与袁绍战。建安二十五年春正月，操薨于洛阳。",
		"甲传.txt":  "建安十年，曹操卒。",
		"乙传.txt":  "建安十年，曹操卒。",
	})
	v, err := ws.Entity(ctx, "曹操", EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if v.Died == nil || *v.Died != 220 {
		t.Fatalf("died %v, want 220 from his own chapter", v.Died)
	}
	years, err := ws.db.FactYears(ctx, v.ID, []string{"死亡时间"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(years["死亡时间"]); n != 3 {
		t.Fatalf("%d dated deaths, want 3: the passing mentions must outvote the chapter for the test to show anything", n)
	}
}

// The 字 and 号 the offline extractor reads as aliases are attributes of
// their entity too, each with its sentence.
func TestPatternNamesAreStatedAttributes(t *testing.T) {
	ctx := context.Background()
	ws, _ := indexTexts(t, map[string]string{"诸葛亮传.txt": "诸葛亮字孔明，琅邪阳都人也。亮躬耕陇亩。"})
	v, err := ws.Entity(ctx, "诸葛亮", EntityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var zi *Attribute
	for i, a := range v.Stated {
		if a.Kind == "字" {
			zi = &v.Stated[i]
		}
	}
	if zi == nil || zi.Value != "孔明" || zi.Extractor != "pattern" || zi.Evidence == nil ||
		zi.Evidence.Tail.Start != 4 || zi.Evidence.Tail.End != 6 || zi.Evidence.Sentence != "诸葛亮字孔明，琅邪阳都人也。" {
		t.Fatalf("stated attributes %+v", v.Stated)
	}
}

func TestPreferBetterAttested(t *testing.T) {
	e := func(name, typ string, mentions int) kg.Entity {
		return kg.Entity{Name: name, Type: typ, Mentions: mentions}
	}
	for _, c := range []struct {
		found []kg.Entity
		want  string
	}{
		// A split-off 孔明 of 6 mentions yields to 诸葛亮, whose 字 it is.
		{[]kg.Entity{e("孔明", "人物", 6), e("诸葛亮", "人物", 407), e("胡昭", "人物", 10)}, "诸葛亮"},
		// A name never mentioned yields to the entity it is a name of.
		{[]kg.Entity{e("汉高祖", "人物", 0), e("刘邦", "人物", 2190)}, "刘邦"},
		// The named entity stays first when it is well attested itself,
		{[]kg.Entity{e("刘备", "人物", 852), e("刘玄德", "人物", 3000)}, "刘备"},
		// or the other is of another type,
		{[]kg.Entity{e("长沙", "地点", 40), e("长沙王", "人物", 900)}, "长沙"},
		// or is not attested ten times as often.
		{[]kg.Entity{e("孔明", "人物", 60), e("诸葛亮", "人物", 407)}, "孔明"},
		{[]kg.Entity{e("孔明", "人物", 6)}, "孔明"},
	} {
		got := preferBetterAttested(c.found)
		if got[0].Name != c.want || len(got) != len(c.found) {
			t.Errorf("%s first of %v: got %v", c.want, c.found, got)
		}
	}
}
