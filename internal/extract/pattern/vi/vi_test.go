package vi

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/annals-project/annals/internal/extract"
	"github.com/annals-project/annals/internal/extract/pattern/latin/latintest"
	"github.com/annals-project/annals/internal/schema"
)

func extractText(t testing.TB, text string, doc *extract.DocContext, sc *schema.Schema) extract.Result {
	t.Helper()
	return latintest.Extract(t, New(), "vi", text, doc, sc)
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
	if x.Name() != "pattern-vi" || !strings.HasPrefix(x.Version(), "vi-") {
		t.Fatalf("Name %q Version %q", x.Name(), x.Version())
	}
	var _ extract.Extractor = x
}

func TestEntitiesWithOffsets(t *testing.T) {
	text := "Lê Lợi sinh năm 1385 tại Lam Sơn. " +
		"Trận Bạch Đằng năm 938 do Ngô Quyền chỉ huy. " +
		"Thái úy Lý Thường Kiệt đánh bại quân Tống trên sông Như Nguyệt."
	r := extractText(t, text, nil, nil)
	wantEntity(t, r, "Lê Lợi", "person", 0, 6)
	wantEntity(t, r, "năm 1385", "time", 12, 20)
	wantEntity(t, r, "Lam Sơn", "place", 25, 32)
	wantEntity(t, r, "Trận Bạch Đằng", "event", 34, 48)
	wantEntity(t, r, "năm 938", "time", 49, 56)
	wantEntity(t, r, "Ngô Quyền", "person", 60, 69)
	wantEntity(t, r, "Thái úy", "office", 79, 86)
	wantEntity(t, r, "Lý Thường Kiệt", "person", 87, 101)
	wantEntity(t, r, "quân Tống", "organisation", 111, 120)
	// The cue word "sông" stays outside the river's name.
	wantEntity(t, r, "Như Nguyệt", "place", 131, 141)
}

func TestDecomposedText(t *testing.T) {
	// Offsets count the code points of the text as given, even when its
	// diacritics are combining marks.
	text := norm.NFD.String("Nguyễn Trãi viết Bình Ngô đại cáo.")
	r := extractText(t, text, nil, nil)
	p := findEntity(r, norm.NFD.String("Nguyễn Trãi"), "person")
	w := findEntity(r, norm.NFD.String("Bình Ngô đại cáo"), "work")
	if p == nil || w == nil || p.Start != 0 || p.End != len([]rune(norm.NFD.String("Nguyễn Trãi"))) {
		t.Fatalf("decomposed text: %s", dump(r))
	}
	wantTriple(t, r, p.Text, "wrote", w.Text)
}

func TestTimes(t *testing.T) {
	text := "Ngày 2 tháng 9 năm 1945 là một mốc lớn. Thế kỷ XV là thời Lê sơ. " +
		"Năm Mậu Tuất, nghĩa quân dựng cờ. Triệu Đà mất năm 137 TCN. Vào thế kỉ thứ 10, đất nước độc lập."
	r := extractText(t, text, nil, nil)
	for _, w := range []string{"Ngày 2 tháng 9 năm 1945", "Thế kỷ XV", "Năm Mậu Tuất", "năm 137 TCN", "thế kỉ thứ 10"} {
		if findEntity(r, w, "time") == nil {
			t.Errorf("missing time %q: %s", w, dump(r))
		}
	}
	wantTriple(t, r, "Triệu Đà", "died_in", "năm 137 TCN")
}

func TestRelations(t *testing.T) {
	cases := []struct {
		text            string
		head, rel, tail string
	}{
		{"Lê Lợi sinh năm 1385 tại Lam Sơn.", "Lê Lợi", "born_in", "năm 1385"},
		{"Lê Lợi sinh năm 1385 tại Lam Sơn.", "Lê Lợi", "born_in", "Lam Sơn"},
		{"Nguyễn Trãi sinh ở Thăng Long.", "Nguyễn Trãi", "born_in", "Thăng Long"},
		{"Lê Lợi mất năm 1433.", "Lê Lợi", "died_in", "năm 1433"},
		{"Trần Quốc Tuấn qua đời tại Vạn Kiếp.", "Trần Quốc Tuấn", "died_in", "Vạn Kiếp"},
		{"Nguyễn Trãi sinh năm 1380, mất năm 1442.", "Nguyễn Trãi", "died_in", "năm 1442"},
		{"Lê Lợi (1385–1433) là người Thanh Hóa.", "Lê Lợi", "born_in", "1385"},
		{"Trần Hưng Đạo là con của Trần Liễu.", "Trần Liễu", "parent_of", "Trần Hưng Đạo"},
		{"Lê Thánh Tông là con trai của Lê Thái Tông.", "Lê Thái Tông", "parent_of", "Lê Thánh Tông"},
		{"Trần Liễu là cha của Trần Quốc Tuấn.", "Trần Liễu", "parent_of", "Trần Quốc Tuấn"},
		{"Huyền Trân là vợ của Chế Mân.", "Huyền Trân", "spouse_of", "Chế Mân"},
		{"Lý Chiêu Hoàng kết hôn với Trần Cảnh.", "Lý Chiêu Hoàng", "spouse_of", "Trần Cảnh"},
		{"Trưng Nhị là em của Trưng Trắc.", "Trưng Nhị", "sibling_of", "Trưng Trắc"},
		{"Trưng Trắc và em gái Trưng Nhị khởi nghĩa năm 40.", "Trưng Trắc", "sibling_of", "Trưng Nhị"},
		{"Lê Lợi lên ngôi hoàng đế năm 1428.", "Lê Lợi", "held_office", "hoàng đế"},
		{"Quang Trung lên ngôi năm 1788.", "Quang Trung", "held_office", "hoàng đế"},
		{"Trần Hưng Đạo được phong làm Quốc công Tiết chế.", "Trần Hưng Đạo", "held_office", "Quốc công Tiết chế"},
		{"Trần Thủ Độ giữ chức thái sư.", "Trần Thủ Độ", "held_office", "thái sư"},
		{"Thái úy Lý Thường Kiệt đánh bại quân Tống.", "Lý Thường Kiệt", "held_office", "Thái úy"},
		{"Thái úy Lý Thường Kiệt đánh bại quân Tống.", "Lý Thường Kiệt", "attacked", "quân Tống"},
		{"Quân Minh bị Lê Lợi đánh bại ở Chi Lăng.", "Lê Lợi", "attacked", "Quân Minh"},
		{"Lý Công Uẩn lập ra nhà Lý.", "Lý Công Uẩn", "founded", "nhà Lý"},
		{"Trần Thánh Tông nối ngôi Trần Thái Tông.", "Trần Thánh Tông", "succeeded", "Trần Thái Tông"},
		{"Trần Thái Tông truyền ngôi cho Trần Thánh Tông.", "Trần Thánh Tông", "succeeded", "Trần Thái Tông"},
		{"Lê Lợi lãnh đạo khởi nghĩa Lam Sơn.", "Lê Lợi", "led", "khởi nghĩa Lam Sơn"},
		{"Trần Hưng Đạo chỉ huy quân Trần.", "Trần Hưng Đạo", "led", "quân Trần"},
		{"Lý Thường Kiệt phục vụ nhà Lý.", "Lý Thường Kiệt", "member_of", "nhà Lý"},
		{"Tướng nhà Minh là Liễu Thăng bị giết tại Chi Lăng.", "Liễu Thăng", "member_of", "nhà Minh"},
		{"Trần Quốc Tuấn còn gọi là Hưng Đạo Vương.", "Trần Quốc Tuấn", "alias_of", "Hưng Đạo Vương"},
		{"Lê Thái Tổ tên thật là Lê Lợi.", "Lê Thái Tổ", "alias_of", "Lê Lợi"},
		{"Nguyễn Trãi viết Bình Ngô đại cáo.", "Nguyễn Trãi", "wrote", "Bình Ngô đại cáo"},
		{"Trận Bạch Đằng diễn ra năm 938.", "Trận Bạch Đằng", "happened_at", "năm 938"},
		{"Trận Bạch Đằng năm 1288 diễn ra trên sông Bạch Đằng.", "Trận Bạch Đằng", "happened_at", "Bạch Đằng"},
		{"Trần Quốc Tuấn tham gia trận Bạch Đằng.", "Trần Quốc Tuấn", "participated_in", "trận Bạch Đằng"},
		{"Nguyễn Ánh liên minh với quân Xiêm.", "Nguyễn Ánh", "allied_with", "quân Xiêm"},
		{"Thăng Long nay thuộc Hà Nội.", "Thăng Long", "located_in", "Hà Nội"},
	}
	for _, c := range cases {
		r := extractText(t, c.text, nil, nil)
		wantTriple(t, r, c.head, c.rel, c.tail)
	}
}

func TestDirection(t *testing.T) {
	r := extractText(t, "Trần Hưng Đạo là con của Trần Liễu.", nil, nil)
	if hasTriple(r, "Trần Hưng Đạo", "parent_of", "Trần Liễu") {
		t.Fatalf("parent_of reversed: %s", dump(r))
	}
	r = extractText(t, "Trần Thái Tông truyền ngôi cho Trần Thánh Tông.", nil, nil)
	if hasTriple(r, "Trần Thái Tông", "succeeded", "Trần Thánh Tông") {
		t.Fatalf("succeeded reversed: %s", dump(r))
	}
}

func TestNoRelationWithoutStatement(t *testing.T) {
	for _, text := range []string{
		"Phan Bội Châu không sinh ở Huế.",
		"Nguyễn Trãi sinh sống ở Côn Sơn.",
		"Lê Lai hy sinh để cứu Lê Lợi.",
		"Lê Lợi và Nguyễn Trãi bàn việc nước.",
		"Trần Quốc Toản là anh hùng của nhà Trần.",
	} {
		r := extractText(t, text, nil, nil)
		for _, x := range r.Triples {
			if x.Relation == "born_in" || x.Relation == "sibling_of" || x.Relation == "spouse_of" || x.Relation == "parent_of" {
				t.Errorf("%q: unexpected %s", text, dump(r))
			}
		}
	}
	r := extractText(t, "Lê Lợi và Nguyễn Trãi bàn việc nước.", nil, nil)
	if len(r.Triples) != 0 {
		t.Errorf("unexpected triples: %s", dump(r))
	}
}

func TestSentenceInitialWords(t *testing.T) {
	text := "Năm ấy mất mùa. Sau đó, ông về Thanh Hóa. Người dân Thăng Long mở hội. Đây là thời thịnh trị. " +
		"Khi quân Nguyên sang, Trần Hưng Đạo giữ Vạn Kiếp. Trong lúc đó, Bà con nổi dậy. Cuộc chiến kéo dài. " +
		"Ông mất năm 1442. Nhà vua ban chiếu. Vào mùa xuân, Lê Lợi tiến quân."
	r := extractText(t, text, nil, nil)
	for _, e := range r.Entities {
		first := strings.Fields(e.Text)[0]
		switch first {
		case "Năm", "Sau", "Người", "Đây", "Khi", "Trong", "Bà", "Cuộc", "Ông", "Nhà", "Vào":
			if e.Type != "time" {
				t.Errorf("false entity %q (%s)", e.Text, e.Type)
			}
		}
	}
	for _, n := range []string{"Thanh Hóa", "Thăng Long", "Vạn Kiếp"} {
		if findEntity(r, n, "place") == nil {
			t.Errorf("missing place %s: %s", n, dump(r))
		}
	}
	for _, n := range []string{"Trần Hưng Đạo", "Lê Lợi"} {
		if findEntity(r, n, "person") == nil {
			t.Errorf("missing person %s: %s", n, dump(r))
		}
	}
	if findEntity(r, "quân Nguyên", "organisation") == nil {
		t.Errorf("missing quân Nguyên: %s", dump(r))
	}
}

func TestShortNamesThroughDoc(t *testing.T) {
	doc := extract.NewDocContext("ls", "Lê Lợi", nil)
	extractText(t, "Lê Lợi sinh năm 1385. Lý Thường Kiệt là tướng nhà Lý. Trần Quốc Tuấn còn gọi là Hưng Đạo Vương.", doc, nil)
	if doc.Names["Lê Lợi"] != "Lê Lợi" || doc.Types["Lê Lợi"] != "person" {
		t.Fatalf("full name not recorded: %v %v", doc.Names, doc.Types)
	}
	r := extractText(t, "Lợi mất năm 1433. Thường Kiệt đánh quân Tống. Hưng Đạo Vương đánh bại quân Nguyên.", doc, nil)
	for _, c := range []struct{ text, name string }{
		{"Lợi", "Lê Lợi"}, {"Thường Kiệt", "Lý Thường Kiệt"}, {"Hưng Đạo Vương", "Trần Quốc Tuấn"},
	} {
		if e := findEntity(r, c.text, "person"); e == nil || e.Name != c.name {
			t.Errorf("%s not resolved to %s: %s", c.text, c.name, dump(r))
		}
	}
	wantTriple(t, r, "Lê Lợi", "died_in", "năm 1433")
	wantTriple(t, r, "Trần Quốc Tuấn", "attacked", "quân Nguyên")

	// A given name shared by two people stays unresolved.
	doc = extract.NewDocContext("x", "", nil)
	extractText(t, "Trần Quang Khải và Lê Quang Khải là hai người khác nhau.", doc, nil)
	r = extractText(t, "Khải về kinh.", doc, nil)
	for _, e := range r.Entities {
		if e.Name != "" {
			t.Errorf("ambiguous name resolved: %+v", e)
		}
	}
}

func TestSchemaFiltering(t *testing.T) {
	latintest.SchemaFiltering(t, New(), "vi", "Lê Lợi sinh năm 1385 tại Lam Sơn. Huyền Trân là vợ của Chế Mân.", "Lê Lợi", "Lam Sơn")
}

func TestDeduplication(t *testing.T) {
	r := extractText(t, "Lê Lợi sinh năm 1385 tại Lam Sơn.", nil, nil)
	n := 0
	for _, x := range r.Triples {
		if x.Relation == "born_in" {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("want 2 born_in, got %s", dump(r))
	}
	seen := map[[2]int]bool{}
	for _, e := range r.Entities {
		k := [2]int{e.Start, e.End}
		if seen[k] {
			t.Fatalf("duplicate entity %+v", e)
		}
		seen[k] = true
	}
}

func TestEmptyAndCancelled(t *testing.T) {
	latintest.EmptyAndCancelled(t, New(), "vi", " \n ", "Lê Lợi mất năm 1433.")
}

func FuzzExtract(f *testing.F) {
	latintest.Fuzz(f, New(), "vi", slices.Concat(samples, []string{
		"«Nam quốc sơn hà» (1077) *Hịch* thế kỷ XV năm Giáp Tý 40 TCN. trước Công nguyên",
		"(((( ,,, – — Nhà Nhà nhà Ông ông Vua vua lên ngôi ngôi xưng đế",
		norm.NFD.String("Hưng Đạo Vương đánh tan quân Nguyên ở sông Bạch Đằng."),
	})...)
}

// samples are short passages of Vietnamese history.
var samples = []string{
	"Lê Lợi sinh năm 1385 tại Lam Sơn. Năm 1418, Lê Lợi lãnh đạo cuộc khởi nghĩa Lam Sơn chống quân Minh.",
	"Nguyễn Trãi viết Bình Ngô đại cáo. Năm 1428, Lê Lợi lên ngôi hoàng đế, lập ra nhà Hậu Lê. Lợi mất năm 1433.",
	"Lý Thường Kiệt là tướng nhà Lý. Thái úy Lý Thường Kiệt đánh bại quân Tống trên sông Như Nguyệt.",
	"Trận Bạch Đằng năm 938 do Ngô Quyền chỉ huy. Trần Hưng Đạo là con của Trần Liễu.",
	"Trần Quốc Tuấn còn gọi là Hưng Đạo Vương. Trần Thánh Tông nối ngôi Trần Thái Tông.",
	"Sau khi thắng trận, Quang Trung lên ngôi. Công chúa Huyền Trân là vợ của Chế Mân.",
	"Lý Công Uẩn dời đô về Thăng Long năm 1010. Tướng nhà Minh là Liễu Thăng bị giết tại Chi Lăng.",
	"Trưng Trắc và em gái Trưng Nhị khởi nghĩa năm 40. Khi quân Nguyên sang xâm lược, Trần Hưng Đạo được phong làm Quốc công Tiết chế.",
	"Trong trận Bạch Đằng năm 1288, quân Trần đánh tan quân Nguyên. Nguyễn Trãi sinh năm 1380, mất năm 1442.",
	"Trần Thủ Độ lập ra nhà Trần. Vua Lê Thánh Tông là con của Lê Thái Tông. Quang Trung đại phá quân Thanh năm 1789.",
}

func BenchmarkExtract(b *testing.B) {
	latintest.Bench(b, New(), "vi", samples)
}

func TestTitlesAndWorks(t *testing.T) {
	text := "Trần Quốc Tuấn là con của An Sinh Vương Trần Liễu. " +
		"Nguyễn Huệ lên ngôi hoàng đế năm 1788, lấy niên hiệu là Quang Trung. " +
		"Nguyễn Trãi sáng tác bài thơ Côn Sơn ca. " +
		"Năm 1075, Lý Thường Kiệt tấn công Ung Châu. " +
		"Hồ Quý Ly lập ra nhà Hồ. " +
		"Tướng Minh Liễu Thăng tử trận."
	r := extractText(t, text, nil, nil)
	wantTriple(t, r, "Trần Liễu", "parent_of", "Trần Quốc Tuấn")
	wantTriple(t, r, "Trần Liễu", "held_office", "An Sinh Vương")
	wantTriple(t, r, "Nguyễn Huệ", "alias_of", "Quang Trung")
	wantTriple(t, r, "Nguyễn Trãi", "wrote", "Côn Sơn ca")
	wantTriple(t, r, "Lý Thường Kiệt", "attacked", "Ung Châu")
	wantTriple(t, r, "Hồ Quý Ly", "founded", "nhà Hồ")
	wantTriple(t, r, "Liễu Thăng", "member_of", "Minh")
	wantTriple(t, r, "Liễu Thăng", "held_office", "Tướng")
	if findEntity(r, "Ung Châu", "place") == nil || findEntity(r, "Hồ Quý Ly", "person") == nil {
		t.Errorf("types: %s", dump(r))
	}
	for _, x := range r.Triples {
		if x.Relation == "alias_of" && x.AliasKind != "niên hiệu" {
			t.Errorf("alias kind %q", x.AliasKind)
		}
	}
}
