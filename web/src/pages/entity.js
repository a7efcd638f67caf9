import { h, fill } from '../dom.js';
import { t, label } from '../i18n.js';
import { getJSON, qs, seg } from '../api.js';
import { href, loading, showError, typeBadge, entityLink, citeLink, lifeSpan, kindLabel, relBadge, fmtYear, citedSentence } from '../ui.js';
import { graphExplorer } from '../graph.js';
import { timelineList } from '../timeline.js';
import { bioCard } from '../bio.js';

// groupAliases gathers an entity's other names by kind, each name once.
function groupAliases(aliases) {
  const by = new Map();
  for (const a of aliases || []) {
    if (!by.has(a.kind)) by.set(a.kind, []);
    const names = by.get(a.kind);
    if (!names.includes(a.name)) names.push(a.name);
  }
  return by;
}

// namesAndAttributes lists the entity's other names by kind and what the
// texts state of it as attributes (字 孔明, 生卒 …): a stated value carries
// the sentence that states it as a citation, and a name of the same kind
// and value takes that citation rather than showing twice.
function namesAndAttributes(aliases, stated) {
  const rows = new Map();
  for (const [kind, names] of aliases) rows.set(kind, names.map((value) => ({ value })));
  for (const a of stated || []) {
    if (!rows.has(a.kind)) rows.set(a.kind, []);
    const list = rows.get(a.kind);
    const row = list.find((r) => r.value === a.value);
    if (row) Object.assign(row, { ev: a.evidence, support: a.support });
    else list.push({ value: a.value, ev: a.evidence, support: a.support });
  }
  if (!rows.size) return null;
  let n = 0;
  return h('dl', { class: 'aliases' }, [...rows].map(([kind, list]) =>
    h('div', null, h('dt', null, kindLabel(kind)), h('dd', null, list.map((r, i) => [i ? '、' : '',
      r.ev ? h('span', { 'data-testid': 'stated-attribute' }, r.value) : r.value,
      r.ev ? [' ', citeLink(r.ev, ++n)] : null,
      r.support > 1 ? h('span', { class: 'muted small' }, ' ', t('entity.stated.support', r.support)) : null])))));
}

// firstYear is the earliest year a fact's evidence is dated to.
function firstYear(r) {
  let y;
  for (const ev of r.evidence || []) if (Number.isFinite(ev.year) && (y === undefined || ev.year < y)) y = ev.year;
  return y;
}

// Groups of facts open with this many; the rest wait behind a button.
const SHOWN = 5;

// factRow shows one fact as a historian reads it: when, who or what on the
// other side, and the sentence that says so, with its citations.
function factRow(r, self) {
  const evs = r.evidence || [];
  const other = r.head_id === self.id ? { name: r.tail, type: r.tail_type, id: r.tail_id } : { name: r.head, type: r.head_type, id: r.head_id };
  const incoming = r.head_id !== self.id;
  const y = firstYear(r);
  const first = evs[0];
  return h('li', { class: 'fact', 'data-testid': 'fact' },
    h('div', { class: 'fact-line' },
      h('span', { class: 'fact-year', 'data-testid': 'fact-year' }, y !== undefined ? fmtYear(y) : ''),
      incoming ? h('span', { class: 'dir muted', title: t('fact.incoming', other.name, label(r.relation), self.name) }, '← ') : null,
      other.id === self.id ? h('strong', { class: 'self' }, other.name) : entityLink(other.name, other.type),
      r.status && r.status !== 'extracted' ? h('span', { class: 'status s-' + r.status.replace(/[^a-z_]/gi, '') }, t('status.' + r.status) === 'status.' + r.status ? r.status : t('status.' + r.status)) : null,
      h('span', { class: 'cites' }, evs.map((ev, i) => citeLink(ev, i + 1))),
      evs.length === 0 ? h('span', { class: 'muted small' }, t('fact.noevidence')) : null),
    first ? citedSentence(first, { class: 'fact-sentence', 'data-testid': 'fact-sentence' }) : null);
}

// factGroups orders an entity's facts by relation, the commonest first and
// other names last (the head of the page lists them), each group in time
// order with undated facts after the dated, the best attested first.
function factGroups(v) {
  const groups = new Map();
  for (const r of v.relations || []) {
    if (!groups.has(r.relation)) groups.set(r.relation, []);
    groups.get(r.relation).push(r);
  }
  const alias = (rel) => rel === '别称' || rel === 'alias_of';
  return [...groups].map(([rel, rs]) => {
    const keyed = rs.map((r) => ({ r, y: firstYear(r), n: (r.evidence || []).length }));
    keyed.sort((a, b) => (a.y === undefined) - (b.y === undefined) || (a.y ?? 0) - (b.y ?? 0) || b.n - a.n);
    return [rel, keyed.map((k) => k.r)];
  }).sort((a, b) => alias(a[0]) - alias(b[0]) || b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
}

function factGroup(rel, rs, self) {
  const list = h('ul', { class: 'facts' }, rs.slice(0, SHOWN).map((r) => factRow(r, self)));
  const rest = rs.length - SHOWN;
  const more = rest > 0 ? h('button', {
    type: 'button', class: 'link small', 'data-testid': 'facts-more',
    onclick: () => {
      list.append(...rs.slice(SHOWN).map((r) => factRow(r, self)));
      more.remove();
    },
  }, t('facts.more', rest)) : null;
  return h('div', { class: 'fact-group', 'data-testid': 'fact-group' },
    h('h3', null, relBadge(rel), ' ', h('span', { class: 'muted' }, rs.length)),
    list, more);
}

export function entityPage(ctx) {
  const name = ctx.arg;
  const page = h('div', { class: 'entity' }, loading());
  if (!name) {
    fill(page, h('p', null, t('entity.none')));
    return page;
  }
  document.title = name + ' · annals';
  getJSON(`/api/entity/${seg(name)}` + qs({ relations: 200, mentions: 20 }), { signal: ctx.signal }).then((v) => {
    document.title = v.name + ' · annals';
    const aliases = groupAliases(v.aliases);
    const groups = factGroups(v);
    const span = lifeSpan(v.born, v.died);
    const person = v.type === '人物' || v.type === 'person';
    const head = h('section', { class: 'card entity-head' },
      h('h1', null, h('span', { 'data-testid': 'entity-name' }, v.name), ' ', typeBadge(v.type), span ? h('span', { class: 'life muted' }, ' ', span) : null),
      v.description ? h('p', { class: 'desc', 'data-testid': 'description', 'data-by': v.described_by || '', title: t(v.described_by === 'llm' ? 'entity.description.llm' : 'entity.description.help') }, v.description,
        v.described_by === 'llm' ? h('span', { class: 'muted small' }, ' ', t('entity.description.byModel')) : null) : null,
      h('p', { class: 'muted' }, t('entity.mentions', v.mentions || 0), ' · ',
        h('a', { href: href.search(v.name) }, t('entity.concordance')), ' · ',
        h('a', { href: href.relate(v.name, '') }, t('entity.relate')),
        person ? [' · ', h('a', { href: href.bio(v.name), 'data-testid': 'bio-link' }, t('entity.bio'))] : null),
      namesAndAttributes(aliases, v.stated_attributes),
      v.others && v.others.length ? h('p', { class: 'others' }, t('entity.others'), ' ', v.others.map((o, i) => [i ? '、' : '', entityLink(o.name, o.type), ' ', typeBadge(o.type)])) : null);
    const facts = h('section', { class: 'card' },
      h('h2', null, t('entity.facts'), ' ', h('span', { class: 'muted' }, `(${(v.relations || []).length})`)),
      groups.length === 0 ? h('p', { class: 'muted' }, t('entity.nofacts')) : null,
      groups.map(([rel, rs]) => factGroup(rel, rs, v)));
    const occ = v.occurrences || [];
    const mentions = occ.length ? h('section', { class: 'card' },
      h('h2', null, t('entity.occurrences')),
      h('ul', { class: 'occ' }, occ.map((m) => {
        const at = m.context ? m.context.indexOf(m.surface) : -1;
        return h('li', null,
          h('a', { href: href.doc(m.doc_key, m.start, m.end), class: 'src' }, m.cite || m.doc_key), ' ',
          at < 0 ? h('span', null, m.context || m.surface) : h('span', null, m.context.slice(0, at), h('mark', { class: 'hl' }, m.surface), m.context.slice(at + m.surface.length)));
      }))) : null;
    const graphCard = h('section', { class: 'card' }, h('h2', null, t('graph.title')), graphExplorer(v.name, ctx));
    const tl = h('div', { class: 'tl-scroll' }, loading());
    const tlCard = h('section', { class: 'card' }, h('h2', null, t('timeline.of', v.name)), tl);
    fill(page, head, person ? bioCard(v.name, ctx) : null, graphCard, h('div', { class: 'cols' }, h('div', { class: 'col-main' }, facts, mentions), h('div', { class: 'col-side' }, tlCard)));
    getJSON('/api/timeline' + qs({ name: v.name }), { signal: ctx.signal }).then((items) => {
      fill(tl, items.length ? timelineList(items) : h('p', { class: 'muted' }, t('timeline.empty')));
    }).catch((err) => {
      fill(tl, h('p', { class: 'muted' }, t('timeline.failed')));
      showError(err);
    });
  }).catch((err) => {
    if (err.name === 'AbortError') return;
    if (err.status !== 404) {
      fill(page, h('section', { class: 'card' }, h('h1', null, name), h('p', null, t('entity.failed'))));
      showError(err);
      return;
    }
    // Not found is the page's own message, not an error banner as well.
    const maybe = h('div', { 'data-testid': 'didyoumean' });
    fill(page, h('section', { class: 'card', 'data-testid': 'notfound' }, h('h1', null, name), h('p', null, t('entity.notfound', name)),
      maybe,
      h('p', null, h('a', { href: href.search(name) }, t('suggest.text', name)))));
    didYouMean(name, ctx.signal).then((list) => {
      if (list.length) fill(maybe, h('p', null, t('entity.didyoumean'), ' ', list.map((e, i) => [i ? '、' : '', entityLink(e.name, e.type),
        e.matched ? h('span', { class: 'muted small' }, ' (', kindLabel(e.matched.kind), ' ', e.matched.name, ')') : null])));
    }).catch(() => {
      // the search link is still there
    });
  });
  return page;
}

// didYouMean looks for the entity a name that matches none may mean: one
// it names in part, or, for a surname and given name (刘邦), a person of
// that surname known by the given name (高祖, whose 名 is 邦), most
// mentioned first.
async function didYouMean(name, signal) {
  const chars = Array.from(name);
  const asks = [name];
  if (chars.length >= 2 && chars.length <= 4) asks.push(chars.slice(1).join(''), chars.slice(0, 2).join(''));
  const lists = await Promise.all(asks.map((q) => getJSON('/api/entities' + qs({ q, limit: 12 }), { signal }).catch(() => [])));
  const seen = new Set();
  const scored = [];
  lists.forEach((list, i) => {
    for (const e of list) {
      if (seen.has(e.id) || e.name === name) continue;
      seen.add(e.id);
      // A given name matched as a 名 and a name of the same surname rank first.
      const given = i === 1 && e.matched && (e.matched.kind === '名' || e.matched.kind === 'given');
      const sameSurname = chars.length > 1 && e.name.startsWith(chars[0]);
      scored.push({ e, rank: (given ? 2 : 0) + (sameSurname ? 1 : 0) + (i === 0 ? 1 : 0), mentions: e.mentions || 0 });
    }
  });
  scored.sort((a, b) => b.rank - a.rank || b.mentions - a.mentions);
  return scored.slice(0, 6).map((x) => x.e);
}
