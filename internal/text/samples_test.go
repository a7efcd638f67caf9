package text

// Passages written for these tests in the style of the dynastic histories,
// of modern Chinese prose, of Vietnamese and of English.
const (
	classicalTrad = "建安十二年冬，劉備自新野往見諸葛亮於隆中，凡三往乃得見。" +
		"亮為備陳天下之勢曰：「北方之兵雖眾，然遠來疲敝，不可與爭鋒。江東之主據險而守，民附而賢能為之用，可以為援而不可圖也。」" +
		"備曰：「善。」於是與亮情好日密，關羽、張飛等不悅。備曰：「吾之得亮，猶魚之得水也，願諸君勿復言。」羽、飛乃止。\n" +
		"乾封元年春正月，帝封泰山，禮畢，大赦天下，改元。夏四月，還至京師，詔百官各上封事。" +
		"秋七月，大雨，河水溢，壞民居數千家，遣使賑給之。冬十月，東夷遣使來朝，獻方物。\n" +
		"臣聞古之善為國者，先愛其民而後用其力，故民樂為之死。今邊郡連歲不登，百姓流亡，而賦役不息，此非所以安天下也。" +
		"願陛下輕徭薄賦，與民休息，則四海之內莫不歸心矣。書奏，帝善之，遂下詔減天下田租之半。\n"

	classicalSimp = "建安十二年冬，刘备自新野往见诸葛亮于隆中，凡三往乃得见。" +
		"亮为备陈天下之势曰：「北方之兵虽众，然远来疲敝，不可与争锋。江东之主据险而守，民附而贤能为之用，可以为援而不可图也。」" +
		"备曰：「善。」于是与亮情好日密，关羽、张飞等不悦。备曰：「吾之得亮，犹鱼之得水也，愿诸君勿复言。」羽、飞乃止。\n" +
		"乾封元年春正月，帝封泰山，礼毕，大赦天下，改元。夏四月，还至京师，诏百官各上封事。" +
		"秋七月，大雨，河水溢，坏民居数千家，遣使赈给之。冬十月，东夷遣使来朝，献方物。\n" +
		"臣闻古之善为国者，先爱其民而后用其力，故民乐为之死。今边郡连岁不登，百姓流亡，而赋役不息，此非所以安天下也。" +
		"愿陛下轻徭薄赋，与民休息，则四海之内莫不归心矣。书奏，帝善之，遂下诏减天下田租之半。\n"

	modernSimp = "诸葛亮是三国时期蜀汉的丞相，也是中国历史上很有名的政治家和军事家。" +
		"他年轻的时候住在隆中，一边读书一边种地，后来被刘备请出来帮助他打天下。" +
		"人们常常用他的故事来说明智慧和忠诚的重要，这些故事在民间流传了一千多年。" +
		"这本书介绍了他的一生，我们可以从中了解那个时代的社会情况，也能看到作者对他的评价。"

	modernTrad = "諸葛亮是三國時期蜀漢的丞相，也是中國歷史上很有名的政治家和軍事家。" +
		"他年輕的時候住在隆中，一邊讀書一邊種地，後來被劉備請出來幫助他打天下。" +
		"人們常常用他的故事來說明智慧和忠誠的重要，這些故事在民間流傳了一千多年。"

	vietnamese = "Năm 1010, vua Lý Thái Tổ quyết định dời đô từ Hoa Lư về Đại La và đổi tên thành Thăng Long. " +
		"Đây là một sự kiện quan trọng trong lịch sử của người Việt. " +
		"Nhà Lý đã xây dựng nhiều chùa, mở mang việc học và củng cố bộ máy nhà nước trong hơn hai trăm năm."

	english = "Zhuge Liang served as chancellor of the state of Shu Han during the Three Kingdoms period. " +
		"He is remembered for his loyalty to Liu Bei and for the northern campaigns that he led after the death of his lord. " +
		"Later storytellers turned him into a figure of almost supernatural wisdom, and his name became a byword for cleverness."
)
