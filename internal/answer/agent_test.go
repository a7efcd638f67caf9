package answer

import "testing"

func TestBridgeKindReadsTheNounARelativeClauseHangsOn(t *testing.T) {
	for q, want := range map[string]string{
		"What is the name of the waterfall in the country where the Bubye River is found?":           "country",
		"Who was the first president of the association which published Journal of Psychotherapy?":   "association",
		"What county shares a border with the county in which Johnnycake, West Virginia is located?": "county",
		"Who is the wife of Kim Jong-chul?": "",
		"诸葛亮的儿子的字是什么":                       "",
	} {
		if got := bridgeKind(q); got != want {
			t.Errorf("%s: %q, want %q", q, got, want)
		}
	}
}
