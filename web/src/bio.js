import { h, fill } from './dom.js';
import { t, label } from './i18n.js';
import { getJSON, qs, seg } from './api.js';
import { loading, entityLink, citeLink, fmtYear, href } from './ui.js';

// asEvidence gives a profile's or biography's citation the shape citation
// links take.
const asEvidence = (c) => ({ doc_key: c.doc, cite: c.cite, start: c.start, end: c.end, sentence: c.quote });

// profileRows lays out what a who's-who gives: names, life, native place,
// kin, offices and titles, each item linked to its first citation.
function profileRows(name, p, number) {
  const cites = (...items) => {
    const seen = new Set();
    return items.flatMap((item) => (item ? (item.citations || []).slice(0, 2) : [])).filter((c) => {
      const n = number(c);
      return !seen.has(n) && seen.add(n);
    }).map((c) => citeLink(asEvidence(c), number(c)));
  };
  const life = (it) => (it ? fmtYear(it.year) : '?');
  // When: the era as the texts count it with the year, the year, or the
  // year of a reign the era table cannot place.
  const when = (it) => {
    if (it.era) return ` (${it.era}，${fmtYear(it.year)})`;
    if (it.year != null) return ` (${fmtYear(it.year)})`;
    return it.reign ? ` (${it.reign})` : '';
  };
  const item = (it, type) => [
    type === '人物' && it.kind ? h('span', { class: 'muted', title: it.kind }, label(it.kind), ' ') : null,
    it.entity_id ? entityLink(it.text, type) : it.text,
    when(it) ? h('span', { class: 'muted' }, when(it)) : null, cites(it)];
  const items = (list, type) => list.map((it, i) => [i ? '、' : '', item(it, type)]);
  const rows = [];
  const row = (title, ...value) => rows.push(h('div', null, h('dt', null, title), h('dd', null, ...value)));
  if (p.surname) row(t('bio.name'), t('bio.surname', p.surname, p.given));
  const zi = (p.names || []).find((n) => n.kind === '字' && n.text === p.zi);
  if (zi) row(label('字'), zi.text, cites(zi));
  if ((p.designations || []).length) {
    row(t('bio.called'), p.designations.map((d, i) => [i ? '、' : '', d.name,
      h('span', { class: 'muted' }, ` (${d.scope.map((u) => `${u.part} ${u.mentions}`).join('，')})`),
      d.scope.slice(0, 2).map((u) => citeLink(asEvidence(u.citation), number(u.citation)))]));
  }
  if (p.native_place) row(t('bio.from'), p.native_place.text, cites(p.native_place));
  if (p.born || p.died) {
    row(t('bio.life'), life(p.born), ' – ', life(p.died),
      p.born && p.born.basis ? h('span', { class: 'muted' }, ' ', t('bio.worked', p.born.basis)) : null,
      cites(p.born, p.died));
  } else if (p.active && p.active.length === 2) {
    row(t('bio.active'), fmtYear(p.active[0]), ' – ', fmtYear(p.active[1]));
  }
  if ((p.kin || []).length) row(t('bio.kin'), kinTree(name, p.kin, (it) => item(it, '人物')));
  if ((p.offices || []).length) row(t('bio.offices'), items(p.offices.slice(0, 12), '职官'));
  if ((p.titles || []).length) row(t('bio.titles'), items(p.titles.slice(0, 8), '爵位'));
  return h('dl', { class: 'aliases profile' }, rows);
}

// kinTree draws the family a generation a row, elders on top, the person
// in his own generation's row with his siblings and spouses; clansmen,
// whose generation the texts do not give, in a row of their own.
function kinTree(name, kin, render) {
  const gens = new Map([[0, []]]);
  const clan = [];
  for (const it of kin) {
    if (it.generation == null) {
      clan.push(it);
      continue;
    }
    if (!gens.has(it.generation)) gens.set(it.generation, []);
    gens.get(it.generation).push(it);
  }
  const people = (list) => list.map((it) => h('span', { class: 'kin-person' }, render(it)));
  const rows = [...gens.keys()].sort((a, b) => a - b).map((g) => h('div', { class: 'kin-gen', 'data-generation': String(g) },
    g === 0 ? h('span', { class: 'kin-person kin-self' }, name) : null, people(gens.get(g))));
  if (clan.length) rows.push(h('div', { class: 'kin-gen kin-clan' }, people(clan)));
  return h('div', { class: 'kin-tree', 'data-testid': 'kin-tree' }, rows);
}

// bioCard shows a person's profile and the biography written from it, its
// sentences' citations numbered as they first appear; a sentence a check
// failed on is marked.
export function bioCard(name, ctx) {
  const body = h('div', null, loading());
  const card = h('section', { class: 'card bio', 'data-testid': 'bio' }, h('h2', null, t('bio.title')), body);
  getJSON(`/api/bio/${seg(name)}` + qs({}), { signal: ctx.signal }).then((b) => {
    const seen = new Map();
    const number = (c) => {
      const k = `${c.doc}@${c.start}-${c.end}`;
      if (!seen.has(k)) seen.set(k, seen.size + 1);
      return seen.get(k);
    };
    const profile = profileRows(b.name || name, b.profile || {}, number);
    const text = h('p', { class: 'bio-text' }, (b.biography || []).map((s) => h('span', {
      class: s.verified ? 'bio-sentence' : 'bio-sentence unverified',
      title: s.verified ? '' : t('bio.unverified'),
    }, s.text, (s.citations || []).map((c) => citeLink(asEvidence(c), number(c))))));
    fill(body, profile, (b.biography || []).length ? text : h('p', { class: 'muted' }, t('bio.none')));
  }).catch(() => {
    // Not a person, or nothing to say: the card goes.
    card.remove();
  });
  return card;
}

// bioPage is a person's profile and biography on a page of its own, to
// print, share or cite.
export function bioPage(ctx) {
  const name = ctx.arg;
  document.title = name + ' · annals';
  return h('div', { class: 'bio-page' },
    h('p', null, h('a', { href: href.entity(name) }, '← ', name)),
    bioCard(name, ctx));
}
