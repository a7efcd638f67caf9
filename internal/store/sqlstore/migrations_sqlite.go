package sqlstore

// migrations are applied in order; PRAGMA user_version records how many ran.
// Never edit a migration that has shipped: append a new one.
var sqliteMigrations = []string{
	// 1: documents, chunks, pipeline steps, extracted names, mentions,
	// evidence, relations, entities and aliases.
	`
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
CREATE TABLE documents (
	id       INTEGER PRIMARY KEY,
	key      TEXT NOT NULL UNIQUE,
	version  TEXT NOT NULL,
	title    TEXT NOT NULL,
	section  TEXT NOT NULL,
	lang     TEXT NOT NULL,
	encoding TEXT NOT NULL,
	chars    INTEGER NOT NULL,
	text     TEXT NOT NULL,
	norm     TEXT,            -- NULL when normalisation changed nothing
	offmap   BLOB,            -- NULL when offsets are unchanged
	added_at TEXT NOT NULL
);
CREATE TABLE chunks (
	id      INTEGER PRIMARY KEY,
	doc_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	seq     INTEGER NOT NULL,
	section TEXT NOT NULL,
	start   INTEGER NOT NULL,
	end     INTEGER NOT NULL,
	overlap INTEGER NOT NULL,
	text    TEXT NOT NULL,
	UNIQUE (doc_id, seq)
);
CREATE TABLE steps (
	doc_id  INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	step    TEXT NOT NULL,
	version TEXT NOT NULL,
	PRIMARY KEY (doc_id, step)
);
CREATE TABLE entities (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL,
	type        TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	mentions    INTEGER NOT NULL DEFAULT 0,
	UNIQUE (name, type)
);
CREATE INDEX entities_type ON entities(type, mentions DESC);
-- names are the canonical forms extractors gave mentions; alignment maps
-- each to an entity.
CREATE TABLE names (
	id        INTEGER PRIMARY KEY,
	name      TEXT NOT NULL,
	type      TEXT NOT NULL,
	entity_id INTEGER REFERENCES entities(id) ON DELETE SET NULL,
	UNIQUE (name, type)
);
CREATE INDEX names_entity ON names(entity_id);
CREATE TABLE mentions (
	id       INTEGER PRIMARY KEY,
	doc_id   INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	chunk_id INTEGER NOT NULL,
	name_id  INTEGER NOT NULL REFERENCES names(id),
	start    INTEGER NOT NULL,
	end      INTEGER NOT NULL,
	surface  TEXT NOT NULL,
	UNIQUE (doc_id, start, end, name_id)
);
CREATE INDEX mentions_name ON mentions(name_id);
CREATE TABLE relations (
	id         INTEGER PRIMARY KEY,
	head_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	type       TEXT NOT NULL,
	tail_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	status     TEXT NOT NULL,
	score      REAL,
	extractor  TEXT NOT NULL,
	query      TEXT,
	created_at TEXT NOT NULL,
	UNIQUE (head_id, type, tail_id, status)
);
CREATE INDEX relations_head ON relations(head_id);
CREATE INDEX relations_tail ON relations(tail_id);
-- evidence: one row per sentence that supports a relation, keyed by
-- document offsets so a fact seen twice is stored once.
CREATE TABLE evidence (
	id          INTEGER PRIMARY KEY,
	relation_id INTEGER REFERENCES relations(id) ON DELETE SET NULL,
	doc_id      INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	chunk_id    INTEGER NOT NULL,
	rtype       TEXT NOT NULL,
	head_name   INTEGER NOT NULL REFERENCES names(id),
	tail_name   INTEGER NOT NULL REFERENCES names(id),
	head_start  INTEGER NOT NULL,
	head_end    INTEGER NOT NULL,
	tail_start  INTEGER NOT NULL,
	tail_end    INTEGER NOT NULL,
	start       INTEGER NOT NULL,
	end         INTEGER NOT NULL,
	extractor   TEXT NOT NULL,
	score       REAL,
	alias_kind  TEXT NOT NULL DEFAULT '',
	sentence    TEXT NOT NULL,  -- original characters, so reading a fact never loads its document
	sentence_norm TEXT,         -- NULL when the same as sentence
	UNIQUE (doc_id, rtype, head_start, head_end, tail_start, tail_end)
);
CREATE INDEX evidence_relation ON evidence(relation_id);
CREATE INDEX evidence_alias ON evidence(rtype) WHERE alias_kind != '';
-- aliases of entities, each with where it came from.
CREATE TABLE aliases (
	id        INTEGER PRIMARY KEY,
	entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	alias     TEXT NOT NULL,
	kind      TEXT NOT NULL,
	source    TEXT NOT NULL,
	UNIQUE (entity_id, alias, kind, source)
);
CREATE INDEX aliases_alias ON aliases(alias);
-- the alias dictionaries a user imported (seed 000 format 主名:别名1,别名2).
CREATE TABLE alias_dict (
	id     INTEGER PRIMARY KEY,
	main   TEXT NOT NULL,
	alias  TEXT NOT NULL,
	source TEXT NOT NULL,
	UNIQUE (main, alias)
);
`,
	// 2: LLM support: response cache, token usage, facts set aside by
	// process supervision, schema growth, learned regexes, vectors and
	// reversible entity merges.
	`
CREATE TABLE llm_cache (
	key        TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	created_at TEXT NOT NULL
);
CREATE TABLE llm_usage (
	id                INTEGER PRIMARY KEY,
	run_at            TEXT NOT NULL,
	command           TEXT NOT NULL,
	step              TEXT NOT NULL,
	model             TEXT NOT NULL,
	calls             INTEGER NOT NULL,
	cached            INTEGER NOT NULL,
	prompt_tokens     INTEGER NOT NULL,
	completion_tokens INTEGER NOT NULL,
	estimated         INTEGER NOT NULL,
	cost              REAL NOT NULL
);
-- kept = 0: a judge scored the fact under the threshold; it is kept aside,
-- out of the graph, and can be listed.
ALTER TABLE evidence ADD COLUMN kept INTEGER NOT NULL DEFAULT 1;
CREATE TABLE state (
	name  TEXT PRIMARY KEY,   -- schema_growth, …
	value BLOB NOT NULL
);
CREATE TABLE regex_patterns (
	key        TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	created_at TEXT NOT NULL
);
CREATE TABLE chunk_vectors (
	chunk_id INTEGER PRIMARY KEY REFERENCES chunks(id) ON DELETE CASCADE,
	model    TEXT NOT NULL,
	vec      BLOB NOT NULL
);
CREATE TABLE entity_vectors (
	entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
	model     TEXT NOT NULL,
	vec       BLOB NOT NULL
);
-- merges decided by an LLM or a person: these names are one entity.
CREATE TABLE merges (
	id         INTEGER PRIMARY KEY,
	type       TEXT NOT NULL,
	canonical  TEXT NOT NULL,
	names      TEXT NOT NULL,     -- JSON list of names
	reason     TEXT NOT NULL,
	source     TEXT NOT NULL,     -- llm:MODEL, user
	created_at TEXT NOT NULL,
	undone_at  TEXT
);
`,
	// 3: reading an entity fast: each relation's evidence count kept with
	// it, and mentions indexed in reading order.
	`
ALTER TABLE relations ADD COLUMN support INTEGER NOT NULL DEFAULT 0;
UPDATE relations SET support = (SELECT count(*) FROM evidence WHERE relation_id = relations.id);
DROP INDEX mentions_name;
CREATE INDEX mentions_name ON mentions(name_id, doc_id, start);
`,
	// 4: time on facts: each evidence sentence's year (from its own time
	// expression, or the year in force where it stands), and the years each
	// chunk speaks of, for timelines and time-bounded retrieval.
	`
ALTER TABLE evidence ADD COLUMN year INTEGER;
ALTER TABLE evidence ADD COLUMN end_year INTEGER;
ALTER TABLE evidence ADD COLUMN precision TEXT;
ALTER TABLE evidence ADD COLUMN time_expr TEXT;
CREATE INDEX evidence_year ON evidence(year) WHERE year IS NOT NULL;
CREATE TABLE chunk_years (
	chunk_id INTEGER NOT NULL REFERENCES chunks(id) ON DELETE CASCADE,
	year     INTEGER NOT NULL,
	PRIMARY KEY (year, chunk_id)
);
`,
	// 5: the year each time expression (a 时间 mention) stands for.
	`
ALTER TABLE mentions ADD COLUMN year INTEGER;
`,
	// 6: facts dated only within a reign the table cannot place (景公二十九年):
	// the ruler as written, the name it was linked to, and the year of the
	// reign, which orders such facts among themselves.
	`
ALTER TABLE evidence ADD COLUMN reign TEXT;
ALTER TABLE evidence ADD COLUMN reign_name INTEGER REFERENCES names(id);
ALTER TABLE evidence ADD COLUMN reign_year INTEGER;
CREATE INDEX evidence_reign ON evidence(reign_name) WHERE reign_name IS NOT NULL;
`,
	// 7: the lexical index: each chunk's terms (Han bigrams, lowercased
	// words; internal/index) written space-separated, so that each term is
	// one token. Contentless, since the terms are derived from chunks.text;
	// a chunk deleted, directly or with its document, leaves the index too.
	`
CREATE VIRTUAL TABLE chunk_terms USING fts5(
	terms, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'
);
-- A transaction's terms are held in memory up to hashsize, then written
-- as one segment: a large one writes a whole batch of the pipeline at once.
INSERT INTO chunk_terms(chunk_terms, rank) VALUES('hashsize', 16777216);
CREATE TRIGGER chunk_terms_delete AFTER DELETE ON chunks BEGIN
	DELETE FROM chunk_terms WHERE rowid = old.id;
END;
-- how many chunks hold each term, which BM25 search reads to skip chunks
-- that hold only common terms.
CREATE VIRTUAL TABLE chunk_vocab USING fts5vocab(chunk_terms, row);
`,
	// 8: a question about someone's courtesy name reads the sentences that
	// gave their names, from the names themselves.
	`
CREATE INDEX evidence_alias_head ON evidence(head_name) WHERE alias_kind != '';
`,
	// 9: the original characters of a chunk whose document was normalised
	// (NULL otherwise, and in chunks written before this version, which
	// are read from the document instead).
	`
ALTER TABLE chunks ADD COLUMN orig TEXT;
`,
	// 10: what relation reasoning wrote back into the graph (BEKO's
	// feedback): the relation it added, the question that produced it, the
	// entities between for a composed fact, and its evidence sentences as
	// JSON (they may come from several chunks, and alignment rewrites the
	// evidence table's links to relations). Reverting keeps the row.
	`
CREATE TABLE feedback (
	id          INTEGER PRIMARY KEY,
	relation_id INTEGER REFERENCES relations(id) ON DELETE SET NULL,
	head_id     INTEGER NOT NULL,
	type        TEXT NOT NULL,
	tail_id     INTEGER NOT NULL,
	status      TEXT NOT NULL,
	query       TEXT NOT NULL,
	via         TEXT NOT NULL DEFAULT '',
	evidence    TEXT NOT NULL,
	created_at  TEXT NOT NULL,
	reverted_at TEXT
);
CREATE INDEX feedback_relation ON feedback(relation_id);
`,
	// 11: a document that a step failed on (an LLM reply that was not
	// valid, a call that failed) is recorded with the reason and the number
	// of runs that tried it; its row goes when the document is written or
	// removed. Cached LLM replies name the step they served, so that the
	// cache can be counted and cleared by step ('' for older entries).
	`
CREATE TABLE failures (
	doc_key  TEXT NOT NULL,
	step     TEXT NOT NULL,
	reason   TEXT NOT NULL,
	attempts INTEGER NOT NULL,
	at       TEXT NOT NULL,
	PRIMARY KEY (doc_key, step)
);
ALTER TABLE llm_cache ADD COLUMN step TEXT NOT NULL DEFAULT '';
`,
	// 12: communities and their reports (the knowledge tree): the report
	// as JSON, its members with their centrality for lookups by entity.
	`
CREATE TABLE communities (
	id        INTEGER PRIMARY KEY,
	name      TEXT NOT NULL,
	method    TEXT NOT NULL,
	size      INTEGER NOT NULL,
	report    TEXT NOT NULL
);
CREATE TABLE community_members (
	community_id INTEGER NOT NULL REFERENCES communities(id) ON DELETE CASCADE,
	entity_id    INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
	rank         INTEGER NOT NULL,
	centrality   REAL NOT NULL,
	PRIMARY KEY (community_id, entity_id)
);
CREATE INDEX community_members_entity ON community_members(entity_id);
`,
	// 13: attributes of entities (Youtu-GraphRAG's has_attr): what a
	// sentence says of a named entity with a value that is text (字 孔明,
	// 生卒 1019年—1086年), keyed like evidence by document offsets: the
	// entity's name as written, the value, the sentence. Rows name the
	// extracted name, as evidence does; alignment maps it to an entity.
	// The names already read as aliases of a kind that is an attribute are
	// copied in from the evidence.
	`
CREATE TABLE entity_attributes (
	id            INTEGER PRIMARY KEY,
	doc_id        INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
	chunk_id      INTEGER NOT NULL,
	name_id       INTEGER NOT NULL REFERENCES names(id),
	attribute     TEXT NOT NULL,
	value         TEXT NOT NULL,  -- original characters
	name_start    INTEGER NOT NULL,
	name_end      INTEGER NOT NULL,
	value_start   INTEGER NOT NULL,
	value_end     INTEGER NOT NULL,
	start         INTEGER NOT NULL,  -- the sentence
	end           INTEGER NOT NULL,
	extractor     TEXT NOT NULL,
	sentence      TEXT NOT NULL,  -- original characters
	sentence_norm TEXT,           -- NULL when the same as sentence
	UNIQUE (doc_id, attribute, name_start, name_end, value_start, value_end)
);
CREATE INDEX entity_attributes_name ON entity_attributes(name_id);
INSERT INTO entity_attributes(doc_id, chunk_id, name_id, attribute, value, name_start, name_end, value_start, value_end,
	start, end, extractor, sentence, sentence_norm)
SELECT doc_id, chunk_id, head_name, alias_kind, substr(sentence, tail_start - start + 1, tail_end - tail_start),
	head_start, head_end, tail_start, tail_end, start, end, extractor, sentence, sentence_norm
FROM evidence WHERE kept = 1 AND alias_kind IN ` + nameKinds + `
ON CONFLICT DO NOTHING;
`,
	// 14: titles apart from the texts, so that finding a person's own
	// chapters (DocumentsTitled) reads an index, not every document.
	`CREATE INDEX documents_title ON documents(title);`,
}

// nameKinds are the kinds of alias that are attributes
// (extract.NameKinds), as an SQL list, for migrations that copy such
// aliases into the attributes.
const nameKinds = "('字', '号', '谥号', '庙号', '封号', '小名', 'courtesy_name', 'art_name', 'posthumous_name', 'temple_name', 'birth_name', 'epithet')"
