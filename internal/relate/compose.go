package relate

// A directed relation along a path: the relation type, and whether the
// entity the step leaves from is its head.
type dirRel struct {
	typ     string
	forward bool
}

// normal states 上级 (tail was head's superior) as the 下级 it mirrors, so
// that compositions need one row for both.
func normal(r dirRel) dirRel {
	if r.typ == "上级" {
		return dirRel{"下级", !r.forward}
	}
	return r
}

// composition is what two steps A→M→B say about A and B; sure rows hold
// whenever both steps do.
type composition struct {
	dirRel
	sure bool
}

func fw(t string) dirRel { return dirRel{t, true} }
func bw(t string) dirRel { return dirRel{t, false} }

// compositions: father's father is grandfather, two who served one lord
// are colleagues, two of one state are of one side… A derived type the
// schema lacks (同僚, 同属, 同乡, 姻亲) names what the pair shares.
var compositions = map[[2]dirRel]composition{
	{fw("子女"), fw("子女")}:                {fw("孙"), true},
	{bw("子女"), bw("子女")}:                {bw("孙"), true},
	{bw("子女"), fw("子女")}:                {fw("同胞"), true},
	{fw("子女"), bw("子女")}:                {fw("婚恋"), false},
	{fw("同胞"), fw("子女")}:                {fw("同族"), true},
	{bw("子女"), fw("同胞")}:                {fw("同族"), true},
	{fw("同胞"), fw("同胞")}:                {fw("同胞"), false},
	{fw("婚恋"), fw("子女")}:                {fw("子女"), false},
	{fw("子女"), fw("婚恋")}:                {fw("姻亲"), true},
	{bw("下级"), fw("下级")}:                {fw("同僚"), true},
	{fw("下级"), fw("下级")}:                {fw("下级"), true},
	{bw("下级"), bw("下级")}:                {bw("下级"), true},
	{bw("下级"), fw("消极态度倾向")}:            {fw("消极态度倾向"), false},
	{bw("下级"), fw("积极态度倾向")}:            {fw("积极态度倾向"), false},
	{fw("所属团体"), bw("所属团体")}:            {fw("同属"), true},
	{fw("籍贯"), bw("籍贯")}:                {fw("同乡"), true},
	{fw("同族"), fw("同族")}:                {fw("同族"), true},
	{fw("parent_of"), fw("parent_of")}:  {fw("grandparent_of"), true},
	{bw("parent_of"), bw("parent_of")}:  {bw("grandparent_of"), true},
	{bw("parent_of"), fw("parent_of")}:  {fw("sibling_of"), true},
	{fw("member_of"), bw("member_of")}:  {fw("same_group"), true},
	{fw("born_in"), bw("born_in")}:      {fw("same_birthplace"), true},
	{fw("sibling_of"), fw("parent_of")}: {fw("relative_of"), true},
	{bw("parent_of"), fw("sibling_of")}: {fw("relative_of"), true},
}

// symmetricTypes hold both ways: the direction of a step says nothing.
var symmetricTypes = map[string]bool{
	"同胞": true, "同族": true, "婚恋": true, "同僚": true, "同属": true, "同乡": true, "姻亲": true,
	"sibling_of": true, "spouse_of": true, "allied_with": true, "same_group": true, "same_birthplace": true, "relative_of": true,
}

// compose is what A→M (a) and M→B (b) say about A and B.
func compose(a, b dirRel) (composition, bool) {
	a, b = normal(a), normal(b)
	try := func(a, b dirRel) (composition, bool) {
		c, ok := compositions[[2]dirRel{a, b}]
		return c, ok
	}
	if c, ok := try(a, b); ok {
		return c, true
	}
	// A symmetric step reads the same both ways.
	for _, x := range variants(a) {
		for _, y := range variants(b) {
			if c, ok := try(x, y); ok {
				return c, true
			}
		}
	}
	return composition{}, false
}

func variants(r dirRel) []dirRel {
	if symmetricTypes[r.typ] {
		return []dirRel{fw(r.typ), bw(r.typ)}
	}
	return []dirRel{r}
}
