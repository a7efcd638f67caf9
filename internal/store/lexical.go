package store

// ChunkHit is a chunk that a lexical (BM25) search found.
type ChunkHit struct {
	ChunkID int64   `json:"chunk_id"`
	DocID   int64   `json:"doc_id"`
	Score   float64 `json:"score"` // BM25, positive, higher is better
}

// ChunkTerms is what the lexical index holds for a chunk of a document
// being written: its terms, space-separated (index.AppendText).
type ChunkTerms struct {
	Seq   int // the chunk's sequence number in the document
	Terms []byte
}

// ConcordanceQuery asks for every occurrence of a string in the corpus.
type ConcordanceQuery struct {
	// Text is matched against the documents' normalised text, so it must
	// be normalised the same way (traditional → simplified) by the caller.
	Text    string
	Context int // characters of context each side; 0 means 20, negative none
	Limit   int // occurrences to return; 0 means 100
	Offset  int // occurrences to skip, for paging
	// Scan looks in every document instead of the lexical index's
	// candidates, for when the index is not complete.
	Scan bool
}

// Occurrence is one place a string occurs, with the text around it.
type Occurrence struct {
	DocID   int64  `json:"doc_id"`
	DocKey  string `json:"doc_key"`
	Title   string `json:"title"`
	Cite    string `json:"cite"`    // 《三国志·蜀书·诸葛亮传》
	Section string `json:"section"` // the document's section path, "/"-joined
	// Start and End are code-point offsets into the original text of the
	// document, half-open; Match is that text.
	Start int    `json:"start"`
	End   int    `json:"end"`
	Match string `json:"match"`
	// Left and Right are the original text on either side, clipped to the
	// document, line breaks turned into spaces.
	Left  string `json:"left"`
	Right string `json:"right"`
}

// Concordance is a page of occurrences, by document key and offset.
type Concordance struct {
	Total       int          `json:"total"` // occurrences in the whole corpus
	Occurrences []Occurrence `json:"occurrences"`
}
