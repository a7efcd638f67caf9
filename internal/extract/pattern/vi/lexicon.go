package vi

import "strings"

// set builds a lookup table of keys (see key) from a list with one entry per
// line or comma-separated entries; entries may have several syllables.
func set(list string) map[string]bool {
	m := map[string]bool{}
	for _, line := range strings.Split(list, "\n") {
		for _, e := range strings.Split(line, ",") {
			if e = strings.TrimSpace(e); e != "" {
				m[phraseKey(e)] = true
			}
		}
	}
	return m
}

// phraseKey is the key of a multi-syllable phrase: syllable keys joined by
// single spaces.
func phraseKey(s string) string {
	ws := strings.Fields(s)
	for i, w := range ws {
		ws[i] = key(w)
	}
	return strings.Join(ws, " ")
}

// Capitalised words that open sentences without naming anything.
var stopInitial = set(`
năm, sau, khi, ông, bà, trong, vào, người, nhà, cuộc, đây, đó, từ, tại, ở, với, theo, do, vì, nhưng, và, các,
những, một, hai, ba, bốn, cùng, lúc, hồi, đến, tới, trước, thời, thế, quân, vua, triều, dưới, trên, giữa, nhân,
bấy, lại, rồi, cũng, còn, ngày, tháng, đầu, cuối, hơn, chính, nay, hiện, tuy, mặc, nếu, bởi, để, về, qua, đời,
con, cha, mẹ, vợ, chồng, anh, em, chị, họ, hắn, chúng, ta, tôi, mình, này, kia, ấy, thì, mà, là, có, không,
được, bị, đã, đang, sẽ, chỉ, rất, nhiều, ít, mỗi, tất, cả, toàn, lần, trận, sự, việc, tướng, ngoài, tiếp, song,
thậm, kết, nhờ, bên, phía, sách, bài, tác, khởi, hoàng, thái, chiến, đánh, sông, núi, thành, phủ, châu, làng,
tỉnh, huyện, xã, vùng, miền, đất, ngôi, tên, hiệu, tục, truyền, tương, ngay, mãi, vẫn, đều, hãy, xin, nào, gì,
ai, đâu, bao, sao, vậy, như, cho, ra, lên, xuống, đi, hết, hầu, dù, giờ, bây, xưa, thuở, nước, đức, đấng, vị,
tuy nhiên, bởi vậy, vì vậy, do đó
`)

// Cues before a capitalised run. Place cues stay outside the place's span
// ("sông Bạch Đằng" → Bạch Đằng); organisation and event cues are part of
// the name ("nhà Trần", "trận Bạch Đằng").
var placeCues = set(`
sông, núi, thành, phủ, châu, làng, tỉnh, huyện, xã, đất, vùng, miền, cửa, cửa biển, cửa sông, đèo, ải, cửa ải,
kinh đô, kinh thành, đảo, biển, hồ, động, thôn, trấn, lộ, quận, đồng bằng, thủ đô, đô thành, thành phố, nước,
xứ, cõi, bến, cầu, chùa, đền, đình, cung, điện, lăng, phường, ấp, bãi, gò, đồi, dãy núi, vịnh, thung lũng,
cao nguyên, vùng đất, quê, quê hương, cảng, thị trấn, thị xã, trại, căn cứ, đồn, thành trì, hương, trang
`)

var orgCues = set(`nhà, triều, vương triều, triều đại, triều đình, quân, nghĩa quân, giặc, quân đội, đạo quân, đội quân,
thủy quân, thuỷ quân, đế quốc, dòng họ, họ`)

var eventCues = set(`trận, trận đánh, chiến thắng, chiến dịch, khởi nghĩa, hội nghị, hội thề, phong trào, chiến tranh,
cuộc chiến, kháng chiến, đại thắng, biến cố, chính biến, đảo chính`)

// Titles that are offices; before a name they also say the person held
// them.
var officeTitles = set(`
vua, hoàng đế, tướng, tướng quân, đại tướng, đại tướng quân, thái úy, thái sư, thái phó, thái bảo, tể tướng,
thừa tướng, thái tử, hoàng thái tử, thái thượng hoàng, thượng hoàng, hoàng hậu, thái hậu, hoàng thái hậu,
công chúa, hoàng tử, chúa, tiết chế, quốc công, quốc công tiết chế, thượng tướng, thượng tướng quân, đại vương,
trạng nguyên, thượng thư, tổng đốc, tuần phủ, đô đốc, thái thú, thứ sử, tiết độ sứ, nguyên soái, đại nguyên soái,
phò mã, quận công, hành khiển, nhập nội hành khiển, tư đồ, đại tư đồ, phụ chính, nhiếp chính, tổng trấn, tri phủ,
tri huyện, quan, vương, thái tể, đô hộ, tiết độ, đại đô đốc, chưởng cơ, thống chế, hầu, phó tướng, nhà vua
`)

// Offices recognised where a sentence uses them as one ("làm thái sư").
var offices = officeTitles

// Person cues that are not offices; honorifics among them are dropped from
// the text rules match against, kin words are kept.
var honorificCues = set(`ông, bà, cụ, anh hùng, danh tướng, nhà thơ, nhà văn, sử gia, nhà sử học, thi sĩ, nho sĩ,
nhà nho, thiền sư, nhà sư, sư, hòa thượng, hoà thượng, phu nhân, nàng, chàng, thầy, thủ lĩnh, tù trưởng, đức, vị,
lãnh tụ, thân vương, quốc mẫu, mẫu hậu`)

var kinCues = set(`cha, mẹ, vợ, chồng, con, con trai, con gái, anh, em, chị, em gái, em trai, anh trai, chị gái,
thân phụ, thân mẫu, cháu, chú, bác, cô, dì, con rể, con dâu, anh rể, em rể, con nuôi, cha nuôi, vợ cả, vợ lẽ,
con cả, con út, trưởng nam, thứ nam`)

// Words before a capitalised run that suggest a place when nothing else
// types the run.
var placePreps = set(`tại, ở, đến, về, từ, tới, sang, ra, qua, vào, khỏi, quanh, gần, trên, dưới, đánh chiếm, chiếm,
chiếm được, dời đô về, đóng đô ở`)

// Words after which an office phrase is used as an office.
var officeContext = set(`làm, chức, giữ chức, phong, được phong, lên ngôi, ngôi, xưng, xưng là, tự xưng, tự xưng là,
là, thăng, thăng chức, nhậm chức, tước, trở thành, thành, lên làm, bổ, cử, giữ, bổ nhiệm, tôn, tôn làm, phong làm,
phong tước, lên, được cử làm, làm chức, chức vụ, trao chức, phong chức`)

// Syllables that end a regnal, temple or title name: "Lý Thái Tổ",
// "Trần Nhân Tông", "Hưng Đạo Vương", "Đinh Tiên Hoàng".
var titleEnds = set(`tổ, tông, vương, đế, hoàng, hậu`)

// Family names; a capitalised run starting with one is a person.
var surnames = set(`
nguyễn, trần, lê, lý, lí, phạm, hoàng, huỳnh, phan, vũ, võ, đặng, bùi, đỗ, hồ, ngô, dương, đinh, mạc, trịnh,
triệu, khúc, tô, lương, đoàn, chu, mai, tạ, cao, lưu, tôn, thân, kiều, đào, hà, phùng, trương, quách, mã, liễu,
vương, thoát, sầm, lã, lữ, đàm, doãn, giang, hứa, khương, lục, mạnh, nghiêm, ninh, tăng, thạch, tiêu, viên,
nông, tống
`)

// Names known to be people, places, works or polities, matched before
// anything else.
var knownPersons = set(`
Hai Bà Trưng, Bà Triệu, Triệu Thị Trinh, Ỷ Lan, Thánh Gióng, An Dương Vương, Hùng Vương, Lạc Long Quân, Âu Cơ,
Quang Trung, Gia Long, Minh Mạng, Minh Mệnh, Thiệu Trị, Tự Đức, Hàm Nghi, Duy Tân, Thành Thái, Khải Định, Bảo Đại,
Thoát Hoan, Ô Mã Nhi, Hốt Tất Liệt, Liễu Thăng, Vương Thông, Mã Viện, Tô Định, Lưu Hoằng Tháo, Quách Quỳ,
Triệu Đà, Sầm Nghi Đống, Tôn Sĩ Nghị, Trưng Trắc, Trưng Nhị, Mai Hắc Đế, Bố Cái Đại Vương, Trần Hưng Đạo,
Hưng Đạo Vương, Yết Kiêu, Dã Tượng, Chu Văn An, Tuệ Tĩnh, Vạn Hạnh, Khuông Việt, Toa Đô, Trương Phụ, Mộc Thạnh
`)

var knownPlaces = set(`
Thăng Long, Hà Nội, Lam Sơn, Bạch Đằng, Đại Việt, Chi Lăng, Hoa Lư, Phú Xuân, Huế, Cổ Loa, Vạn Kiếp, Đông Đô,
Tây Đô, Thanh Hóa, Thanh Hoá, Nghệ An, Chương Dương, Hàm Tử, Đống Đa, Ngọc Hồi, Rạch Gầm, Xoài Mút, Như Nguyệt,
Tốt Động, Chúc Động, Điện Biên Phủ, Sài Gòn, Gia Định, Quảng Nam, Trung Quốc, Chiêm Thành, Chăm Pa, Champa,
Đại Cồ Việt, Đại Nam, Việt Nam, Lạng Sơn, Cao Bằng, Vân Đồn, Thiên Trường, Tức Mặc, Kinh Bắc, Bắc Ninh,
Hải Dương, Quảng Ninh, Xương Giang, Lĩnh Nam, Mê Linh, Giao Chỉ, An Nam, Phong Châu, Nam Định, Thái Bình,
Đông Kinh, Tây Kinh, Hồng Hà, sông Hồng, Mông Cổ, Đàng Trong, Đàng Ngoài, Văn Lang, Âu Lạc, Vạn Xuân, Nam Việt,
Giao Châu, Ái Châu, Hoan Châu, Thuận Hóa, Phú Yên, Bình Định, Quy Nhơn, Ai Lao, Xiêm, Chân Lạp, Tam Điệp,
Biện Sơn, Đông Quan, Nhị Hà, Lục Đầu, Thất Khê, Côn Sơn, Kiếp Bạc, Yên Tử, Bình Than, Diên Hồng
`)

var knownWorks = set(`
Bình Ngô đại cáo, Hịch tướng sĩ, Nam quốc sơn hà, Đại Việt sử ký toàn thư, Đại Việt sử kí toàn thư,
Đại Việt sử ký, Chiếu dời đô, Thiên đô chiếu, Quân trung từ mệnh tập, Truyện Kiều, Dư địa chí, Binh thư yếu lược,
Lam Sơn thực lục, Ức Trai thi tập, Quốc âm thi tập, Đại Nam thực lục, Khâm định Việt sử thông giám cương mục,
Việt điện u linh, Lĩnh Nam chích quái, Hoàng Việt luật lệ, Quốc triều hình luật, Vạn Kiếp tông bí truyền thư,
Chinh phụ ngâm, Cung oán ngâm khúc, An Nam chí lược, Phú sông Bạch Đằng, Bạch Đằng giang phú
`)

// Polities: after an organisation cue, a run that starts with one and goes on
// holds a person's name too ("tướng nhà Minh Liễu Thăng").
var polities = set(`
Lý, Trần, Lê, Hậu Lê, Tiền Lê, Hồ, Mạc, Nguyễn, Tây Sơn, Đinh, Ngô, Minh, Nguyên, Nguyên Mông, Mông Nguyên,
Mông Cổ, Tống, Thanh, Hán, Đường, Tùy, Lương, Triệu, Tần, Đông Hán, Tây Hán, Nam Hán, Ngô Quyền
`)

// Foreign polities, split off the front of a name after a title: "tướng
// Minh Liễu Thăng". Vietnamese dynasties are family names too, so "vua Trần
// Nhân Tông" is not split.
var foreignPolities = set(`Minh, Nguyên, Nguyên Mông, Mông Nguyên, Mông Cổ, Tống, Thanh, Hán, Đường, Tùy, Tần, Đông Hán,
Tây Hán, Nam Hán, Xiêm, Chiêm Thành`)

// Words that mark a title in quotes or after them as a work.
var workCues = set(`bài, tác phẩm, cuốn, bộ, sách, bài thơ, bài hịch, bài cáo, áng văn, tập, tờ, bản, chiếu, hịch,
cáo, thơ, truyện, bộ sách, cuốn sách, bộ sử, viết, soạn, sáng tác, biên soạn, trước tác, bài phú, phú, văn bản`)

// Nouns before a title that make it a work: "bài thơ Côn Sơn ca".
var workNouns = set(`bài, tác phẩm, cuốn, sách, bài thơ, bài hịch, bài cáo, áng văn, bài phú, bộ sử, bộ sách,
cuốn sách, tập thơ, bài chiếu, tờ chiếu, bài văn, tập sách`)

// Lower-case words that cannot continue a work's title.
var workStops = set(`do, của, được, là, và, với, viết, soạn, năm, vào, trong, tại, ở, khi, thì, mà, đã, đang, sẽ,
có, không, bị, cho, để, ra, lên, nói, gồm, nêu, thể, hiện, sáng, tác, biên, ông, bà, nhằm, như, này, đó, ấy,
nổi, tiếng, được, coi, xem, từ, sau, trước`)

// Heavenly stems and earthly branches name years: năm Mậu Tuất.
var stems = set(`giáp, ất, bính, đinh, mậu, kỷ, kỉ, canh, tân, nhâm, quý, quí`)
var branches = set(`tý, tí, sửu, dần, mão, mẹo, thìn, tỵ, tị, ngọ, mùi, thân, dậu, tuất, hợi`)

// Era markers after a year.
var eraWords = set(`tcn, scn`)

// Syllable pairs written as one token in the text rules match against, so
// that "hy sinh" is not read as "sinh" (born), nor "anh hùng" as "anh"
// (elder brother).
var compounds = set(`hy sinh, hi sinh, sinh sống, học sinh, sinh viên, anh hùng, sinh hoạt, sinh lực, sinh linh,
phát sinh, sinh mạng, sinh mệnh, anh dũng, anh minh, em út, con người, con đường, con cháu, lấy lại, mất mùa,
chiếm lấy, lấy được, lấy cớ, mất lòng, mất nước, bị mất`)

// Last syllables of place names: "Ung Châu", "Bạch Đằng giang", "Đông Đô".
var placeEnds = set(`châu, giang, sơn, đô, kinh, phủ, quan, lĩnh, hải, khẩu, trấn, thành`)
