package vi

import (
	"strings"
	"sync"

	"github.com/annals-project/annals/internal/extract/pattern/latin"
)

// Relation rules are written in the notation of package latin, with words
// folded to their keys. Lists end in "và" or "cùng"; · is part of a word,
// as in the compound hy·sinh (see compounds).
var grammar = latin.Grammar{Key: key, And: "(?:và|cùng)"}

// o keeps the rule tables short.
var o = latin.O

// commonWords are poor index keys: nearly every sentence has them.
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`là của và , ( ) ở tại vào năm được đã với cho các những một ông bà`) {
		m[w] = true
	}
	return m
}()

var rules = sync.OnceValue(func() *latin.RuleSet { return latin.NewRuleSet(compileRules(), commonWords) })

// Word classes used in several rules.
const (
	birthVb    = `sinh|sinh_ra|chào_đời|ra_đời|được_sinh_ra`
	deathVb    = `mất|qua_đời|từ_trần|băng_hà|băng|hy·sinh|hi·sinh|tử_trận|chết|tạ_thế|bị_giết|bị_xử_tử|bị_xử_trảm|bị_chém|tự_vẫn|tự_tử|thác|tử_nạn|tử_tiết|bị_sát_hại|bị_ám_sát|lâm_bệnh_mất|bị_bắt_và_xử_tử|bị_bắt_và_giết`
	childWord  = `con|con_trai|con_gái|con_cả|con_thứ|con_trưởng|con_út|trưởng_nam|thứ_nam|con_nuôi|con_một|người_con`
	parentWord = `cha|mẹ|bố|thân_phụ|thân_mẫu|cha_đẻ|mẹ_đẻ`
	sibWord    = `anh|em|chị|anh_trai|em_trai|em_gái|chị_gái|anh_ruột|em_ruột|anh_cả|em_út`
	spouseWord = `vợ|chồng|hoàng_hậu|phi|vợ_cả|vợ_lẽ|thứ_phi|chánh_cung|phu_nhân|cung_phi|nguyên_phi|hoàng_phi|thái_hậu`
	attackVb   = `đánh|tấn_công|đánh_bại|tiến_đánh|đánh_chiếm|chiếm|chiếm_được|đánh_tan|đánh_thắng|đại_phá|phá|phá_tan|vây|vây_hãm|bao_vây|xâm_lược|xâm_chiếm|xâm_lăng|tiêu_diệt|đánh_úp|công_phá|hạ|đánh_lui|đẩy_lùi|chặn_đánh|phục_kích|tập_kích|tiến_công|đánh_đuổi|đuổi|đánh_phá|dẹp|dẹp_tan|bình_định|đàn_áp|chinh_phạt|thảo_phạt|xâm_phạm|chiến_thắng|đại_thắng|đánh_bật|quét_sạch|truy_kích`
	appointVb  = `phong|cử|bổ|bổ_nhiệm|giữ|nhậm|làm|xưng|tự_xưng|trở_thành|lên_làm|thăng|tôn|phong_làm|được_phong|được_cử_làm|lên|giữ_chức|nhậm_chức|được_bổ_nhiệm`
	happenVb   = `diễn_ra|xảy_ra|nổ_ra|bùng_nổ|bắt_đầu|kết_thúc|diễn|xảy|bùng_lên|mở_màn|nổ`
	leadVb     = `lãnh_đạo|chỉ_huy|cầm_đầu|thống_lĩnh|dẫn_đầu|phát_động|khởi_xướng|tổ_chức`
	foundVb    = `lập_ra|sáng_lập|thành_lập|lập_nên|dựng_nên|khai_sinh|xây_dựng|khai_lập|khai_sáng|dựng|lập|xây|đắp|khai_quốc`
	writeVb    = `viết|soạn|sáng_tác|biên_soạn|trước_tác|thảo|chấp_bút|soạn_thảo|hiệu_đính|biên_tập`
	workWord   = `[bài|tác_phẩm|cuốn|bộ|sách|bài_thơ|bài_hịch|áng_văn|bài_cáo|bài_phú|tập|bản|tờ|bộ_sử|bộ_sách|cuốn_sách]`
)

func compileRules() []*latin.Rule {
	var rs []*latin.Rule
	add := func(dsl string, outs ...latin.Out) { rs = append(rs, grammar.Compile(dsl, "", outs...)) }
	addKind := func(dsl, kind string, outs ...latin.Out) { rs = append(rs, grammar.Compile(dsl, kind, outs...)) }

	// Birth and death.
	add(latin.Person+` ~ [đã|được] `+birthVb+` [vào] [ngày] {time}`, o("born_in", 0, 1))
	add(latin.Person+` ~ [đã|được] `+birthVb+` * tại|ở|trên {place?}`, o("born_in", 0, 1))
	add(latin.Person+` ~ [đã|được] `+birthVb+` ** tại|ở|trên {place}`, o("born_in", 0, 1))
	add(latin.Person+` ~ [đã|được] `+birthVb+` ** [vào] {time}`, o("born_in", 0, 1))
	add(`{time} [,] `+latin.Person+` ~ `+birthVb, o("born_in", 1, 0))
	add(latin.Person+` ( {time} - {time} )`, o("born_in", 0, 1), o("died_in", 0, 2))
	add(latin.Person+` ( [?] - {time} )`, o("died_in", 0, 1))
	add(latin.Person+` ~ [đã|bị] `+deathVb+` [vào] [ngày] {time}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [đã|bị] `+deathVb+` * tại|ở|trên {place?}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [đã|bị] `+deathVb+` ** tại|ở|trên {place}`, o("died_in", 0, 1))
	add(latin.Person+` ~ [đã|bị] `+deathVb+` ** [vào] {time}`, o("died_in", 0, 1))
	add(`{time} [,] `+latin.Person+` ~ [đã|bị] `+deathVb, o("died_in", 1, 0))
	add(latin.Person+` ~ [đã|được] `+birthVb+` ** , [và] [đã] `+deathVb+` [vào|tại|ở|trên] {place|time}`, o("died_in", 0, 1))

	// Parents and children.
	add(latin.Person+` ~ [,] là `+childWord+` * [của] `+latin.Persons, o("parent_of", 1, 0))
	add(latin.Person+` , `+childWord+` * của `+latin.Persons, o("parent_of", 1, 0))
	add(latin.Person+` ~ [,] là `+parentWord+` * [của] `+latin.Persons, o("parent_of", 0, 1))
	add(childWord+` * của `+latin.Person+` [là|,|:] `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` ~ [có|sinh|sinh_ra|sinh_được] * `+childWord+` [là|tên_là|,|:] `+latin.Persons, o("parent_of", 0, 1))
	add(latin.Person+` [cùng|và|với] `+childWord+` [là|,] `+latin.Persons, o("parent_of", 0, 1))
	add(parentWord+` của `+latin.Person+` là {person?}`, o("parent_of", 1, 0))
	add(latin.Person+` ~ [,] `+parentWord+` [ông|bà|của_ông|của_bà] là {person?}`, o("parent_of", 1, 0))

	// Siblings.
	add(latin.Person+` ~ [,] là `+sibWord+` * [của] {person?}`, o("sibling_of", 0, 1))
	add(latin.Person+` [cùng|và|với] `+sibWord+` [là|,] `+latin.Persons, o("sibling_of", 0, 1))
	add(latin.Persons+` là [hai|ba|bốn|năm] anh_em|chị_em|anh_em_ruột|chị_em_ruột`, o("sibling_of", 0, 0))
	add(sibWord+` của `+latin.Person+` là `+latin.Persons, o("sibling_of", 0, 1))

	// Marriage.
	add(latin.Person+` ~ [,] là `+spouseWord+` * [của] {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ [đã] lấy {person}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ [đã] cưới|kết_hôn_với|kết_duyên_với|lấy_chồng_là|lấy_vợ_là|thành_hôn_với|kết_hôn_cùng {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ [được] gả|kết_hôn cho|với {person?}`, o("spouse_of", 0, 1))
	add(latin.Person+` ~ [đã] gả {person?} cho {person?}`, o("spouse_of", 1, 2))
	add(latin.Person+` ~ [đã] gả con|con_gái [là] {person?} cho {person?}`, o("parent_of", 0, 1), o("spouse_of", 1, 2))
	add(latin.Person+` [cùng|và|với] vợ|chồng [là|,] {person?}`, o("spouse_of", 0, 1))
	add(`vợ|chồng của `+latin.Person+` là {person?}`, o("spouse_of", 0, 1))
	add(latin.Persons+` là vợ_chồng`, o("spouse_of", 0, 0))

	// Other names.
	for _, k := range []string{"tên thật", "tên húy", "húy", "tên tự", "tự", "hiệu", "tên hiệu", "miếu hiệu",
		"thụy hiệu", "tên chữ", "biệt hiệu", "pháp danh", "đạo hiệu", "bí danh", "tên khai sinh", "tên gọi khác",
		"tên cũ", "tên thường gọi", "tên gọi"} {
		kw := strings.ReplaceAll(k, " ", "_")
		addKind(latin.AliasHead+` ~ [,] [có] `+kw+` [là|:] `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(latin.AliasHead+` ( [có] `+kw+` [là|:] `+latin.AliasTail, k, o("alias_of", 0, 1))
		addKind(kw+` của `+latin.AliasHead+` là `+latin.AliasTail, k, o("alias_of", 0, 1))
	}
	add(latin.AliasHead+` ~ [,] còn_gọi_là|còn_được_gọi_là|còn_có_tên_là|còn_có_tên|tức_là|tức|hay_còn_gọi_là|thường_gọi_là|thường_được_gọi_là|được_gọi_là|còn_được_biết_đến_là|còn_được_biết_đến_với_tên|hay_còn_gọi|còn_gọi `+latin.AliasTail, o("alias_of", 0, 1))
	add(latin.AliasHead+` ( tức|hay|nay_là|còn_gọi_là|xưa_là `+latin.AliasTail, o("alias_of", 0, 1))
	add(latin.AliasHead+` ~ [,] nay_là|ngày_nay_là `+latin.AliasTail, o("alias_of", 0, 1))
	addKind(latin.Person+` ~ ** , lấy|đặt|đổi niên_hiệu [là] `+latin.AliasTail, "niên hiệu", o("alias_of", 0, 1))
	add(latin.AliasHead+` ~ [được|bị] đổi_tên_thành|đổi_tên_là|đổi_là|đổi_thành|đổi_tên `+latin.AliasTail, o("alias_of", 0, 1))

	// Offices.
	add(latin.Person+` ~ [đã] lên [ngôi] [là] {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ [đã|được|bị] `+appointVb+` [làm|chức|là|tước|ngôi|vị] [chức] {office}`, o("held_office", 0, 1))
	add(latin.Actor+` ~ [đã] phong|cử|bổ_nhiệm|bổ|phong_cho|trao_cho|tôn|lập|giao_cho {person?} [làm|giữ|chức|là|tước|lên] [chức|ngôi] {office}`, o("held_office", 1, 2))
	add(latin.Person+` ~ là {office}`, o("held_office", 0, 1))
	add(latin.Person+` ~ [,] [là|làm|giữ_chức] {office} [của|thời|dưới_thời|cho|triều] {organisation}`, o("held_office", 0, 1), o("member_of", 0, 2))

	// Membership.
	add(latin.Actor+` ~ [đã] thuộc|phục_vụ|phục_vụ_cho|làm_quan_cho|làm_quan|làm_tướng|làm_tướng_cho|đầu_quân_cho|đầu_quân|gia_nhập|theo|đi_theo|đầu_hàng|quy_phục|quy_hàng|hàng|trung_thành_với|phò|phò_tá|theo_về|về_với|ra_làm_quan_cho [cho] {organisation}`, o("member_of", 0, 1))
	add(`tướng|quan|vua|chúa|tướng_giặc|đại_tướng|thái_sư|tướng_lĩnh|danh_tướng [của] {organisation} [là|,] `+latin.Persons, o("member_of", 1, 0))
	add(latin.Person+` , tướng|quan|vua|chúa|danh_tướng|đại_tướng|tướng_lĩnh|đại_thần|trung_thần|công_thần|khai_quốc_công_thần [của] {organisation}`, o("member_of", 0, 1))
	add(latin.Person+` ~ là [một] [vị|người] danh_tướng|tướng|tướng_lĩnh|quan|đại_thần|trung_thần|công_thần|nhà_thơ|nhà_văn|sử_gia|nho_sĩ|danh_nho|trạng_nguyên|thiền_sư * [thời|của|dưới_thời|triều] {organisation}`, o("member_of", 0, 1))

	// Location.
	add(`{place|organisation} ~ [,] [nay] thuộc|nằm_ở|nằm_trong|nằm_tại|nằm_trên|nằm_bên|ở|tại|trong|thuộc_về|thuộc_địa_phận|nằm {place}`, o("located_in", 0, 1))
	add(`{place} ( [nay] thuộc|ở|tại|trong {place} )`, o("located_in", 0, 1))

	// Participation and leadership.
	add(latin.Actors+` ~ [đã] tham_gia|tham_chiến|chiến_đấu|có_mặt|góp_công|lập_công|tử_trận|hy·sinh|bị_thương|thắng|thua|chiến_thắng|đại_thắng|thất_bại|bại_trận|đại_bại|tử_thủ * [trong|ở|tại] [cuộc] {event}`, o("participated_in", 0, 1))
	add(`trong [cuộc] {event} [,] `+latin.Actors, o("participated_in", 1, 0))
	add(`trong [cuộc] {event} [vào] {time} [,] `+latin.Actors, o("participated_in", 2, 0))
	add(latin.Person+` ~ [đã] `+leadVb+` [cuộc] {organisation|event}`, o("led", 0, 1))
	add(latin.Person+` ~ [đã] dẫn|đem|cầm|mang|điều|thống_lĩnh [đại] {organisation}`, o("led", 0, 1))
	add(`[cuộc] {organisation|event} ~ [do] `+latin.Persons+` `+leadVb, o("led", 1, 0))
	add(`[cuộc] {organisation|event} ** do `+latin.Persons+` `+leadVb, o("led", 1, 0))
	add(`[cuộc] {organisation|event} ~ [dưới] sự_lãnh_đạo|sự_chỉ_huy|quyền_chỉ_huy của `+latin.Persons, o("led", 1, 0))
	add(`dưới sự_lãnh_đạo|sự_chỉ_huy|quyền_chỉ_huy của `+latin.Person+` [,] [cuộc] {organisation|event}`, o("led", 0, 1))

	// Attacks.
	add(latin.Actors+` ~ [đã] [đem|dẫn|mang|cất|kéo|tiến|đưa] [quân|binh|đại_quân] [sang|lên|ra|vào|xuống|về] `+attackVb+` [quân|binh] {place|organisation|person?+}`, o("attacked", 0, 1))
	add(latin.Actors+` ~ [đã] `+attackVb+` {person|organisation|place?+} [tại|ở] * trong [cuộc] {event}`, o("participated_in", 0, 2), o("participated_in", 1, 2))
	add(latin.Actors+` ~ [đã] [đứng_lên|nổi_dậy|khởi_nghĩa|kháng_chiến|đánh|chiến_đấu] chống|chống_lại [quân] {person|organisation+}`, o("attacked", 0, 1))
	add(latin.Person+` ~ [đã] `+leadVb+` [cuộc] {event} chống|chống_lại [quân] {person|organisation+}`, o("led", 0, 1), o("attacked", 0, 2))
	add(`{place|organisation|person?+} ~ [đã] bị `+latin.Actors+` `+attackVb, o("attacked", 1, 0))
	add(`{place|organisation|person?+} ~ [đã] bị `+attackVb+` [bởi] `+latin.Actors, o("attacked", 1, 0))

	// Alliances.
	add(latin.Actors+` ~ [đã] liên_minh|liên_kết|kết_minh|hòa_hiếu|bắt_tay|hợp_tác|giao_hảo|kết_giao|kết_thân|liên_hiệp|hợp_sức|hợp_lực|giảng_hòa * với `+latin.Actors, o("allied_with", 0, 1))
	add(latin.Actors+` ~ [đã] liên_minh|kết_minh|liên_kết|hợp_sức|hợp_lực`, o("allied_with", 0, 0))
	add(`liên_minh giữa `+latin.Actors, o("allied_with", 0, 0))

	// Succession.
	add(latin.Person+` ~ [đã] [lên] nối_ngôi|kế_vị|nối_nghiệp|kế_nghiệp|lên_thay|thay|kế_tục|nối_dõi [cho] {person?}`, o("succeeded", 0, 1))
	add(latin.Person+` ~ [đã] [lên] nối_ngôi|kế_vị|thay|lên_thay cha|vua_cha [là|,] {person?}`, o("succeeded", 0, 1), o("parent_of", 1, 0))
	add(latin.Person+` ~ [đã] [lên] nối_ngôi|kế_vị|thay|lên_thay anh|em|anh_trai|em_trai [là|,] {person?}`, o("succeeded", 0, 1), o("sibling_of", 0, 1))
	add(latin.Person+` ~ [đã] truyền_ngôi|nhường_ngôi|trao_ngôi|truyền_lại_ngôi [lại] cho {person?}`, o("succeeded", 1, 0))
	add(latin.Person+` ~ [đã] truyền_ngôi|nhường_ngôi|trao_ngôi [lại] cho con|con_trai [là|,] {person?}`, o("succeeded", 1, 0), o("parent_of", 0, 1))
	add(`người_kế_vị|kế_vị [của] `+latin.Person+` là {person?}`, o("succeeded", 1, 0))
	add(latin.Person+` ~ là người_kế_vị|kế_vị [của] {person?}`, o("succeeded", 0, 1))

	// Founding.
	add(latin.Actor+` ~ [đã] `+foundVb+` [ra|nên] {organisation|place?}`, o("founded", 0, 1))
	add(`{organisation|place} ~ [do|được] `+latin.Actors+` `+foundVb+` [ra|nên]`, o("founded", 1, 0))
	add(`{organisation|place} ~ được `+foundVb+` bởi `+latin.Actors, o("founded", 1, 0))
	add(`người_sáng_lập|người_lập_ra [ra] {organisation|place} là `+latin.Person, o("founded", 1, 0))
	add(latin.Person+` ~ là người_sáng_lập|người_lập_ra|người_khai_sáng [ra] {organisation|place?}`, o("founded", 0, 1))

	// Writing.
	add(latin.Person+` ~ [đã] `+writeVb+` [ra|nên] `+workWord+` {work?}`, o("wrote", 0, 1))
	add(`{work} ~ [do|của] `+latin.Persons+` [viết|soạn|sáng_tác|biên_soạn|chấp_bút|soạn_thảo]`, o("wrote", 1, 0))
	add(`tác_giả [của] `+workWord+` {work} [là] `+latin.Person, o("wrote", 1, 0))
	add(latin.Person+` ~ [là] tác_giả [của] `+workWord+` {work?}`, o("wrote", 0, 1))

	// When and where events happened.
	add(`{event} ~ [đã] `+happenVb+` * [vào|tại|ở|trên] {place|time?}`, o("happened_at", 0, 1))
	add(`{event} ~ [đã] `+happenVb+` ** [vào|tại|ở|trên] {place|time}`, o("happened_at", 0, 1))
	add(`{event} ~ [đã] `+happenVb+` * [vào|tại|ở|trên] {place|time?} [,] [vào|tại|ở|trên] {place|time?}`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} [vào] {time}`, o("happened_at", 0, 1))
	add(`{event} [vào] {time} [,] [đã] `+happenVb+` * [vào|tại|ở|trên] {place|time?}`, o("happened_at", 0, 2))
	add(`{event} ( {time} )`, o("happened_at", 0, 1))
	add(`{event} ( {time} - {time} )`, o("happened_at", 0, 1), o("happened_at", 0, 2))
	add(`{event} tại|ở|trên {place}`, o("happened_at", 0, 1))
	add(`{time} [,] [cuộc] {event}`, o("happened_at", 1, 0))
	return rs
}

// Skip leaves cue words out of the text rules read.
func (s *sent) Skip(i int) bool { return s.cue[i] }

// Word reads token i as its key, and a compound that would mislead a rule
// ("hy sinh" is not "sinh") as one word with the next token.
func (s *sent) Word(i int) (string, int) {
	w := s.Toks[i].Key
	if s.Toks[i].Kind == latin.Word && i+1 < len(s.Toks) && s.Own[i+1] < 0 && !s.cue[i+1] && s.Toks[i+1].Kind == latin.Word &&
		compounds[w+" "+s.Toks[i+1].Key] {
		return w + "·" + s.Toks[i+1].Key, 2
	}
	return w, 1
}
