import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, qs, seg } from '../api.js';
import { href, loading, showError, typeBadge, entityLink, citeLink, lifeSpan, kindLabel } from '../ui.js';
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

function factRow(r, self) {
  const side = (name, type, id) => (id === self.id ? h('strong', { class: 'self' }, name) : entityLink(name, type));
  const evs = r.evidence || [];
  return h('li', { class: 'fact', 'data-testid': 'fact' },
    h('span', { class: 'triple' }, side(r.head, r.head_type, r.head_id), h('span', { class: 'arrow', 'aria-hidden': 'true' }, ' → '), h('span', { class: 'sr' }, ' ' + r.relation + ' '), side(r.tail, r.tail_type, r.tail_id)),
    r.status && r.status !== 'extracted' ? h('span', { class: 'status s-' + r.status.replace(/[^a-z_]/gi, '') }, t('status.' + r.status) === 'status.' + r.status ? r.status : t('status.' + r.status)) : null,
    r.score != null ? h('span', { class: 'score muted', title: t('fact.score') }, Number(r.score).toFixed(2)) : null,
    h('span', { class: 'cites' }, evs.map((ev, i) => citeLink(ev, i + 1))),
    evs.length === 0 ? h('span', { class: 'muted small' }, t('fact.noevidence')) : null);
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
    const groups = new Map();
    for (const r of v.relations || []) {
      if (!groups.has(r.relation)) groups.set(r.relation, []);
      groups.get(r.relation).push(r);
    }
    const span = lifeSpan(v.born, v.died);
    const head = h('section', { class: 'card entity-head' },
      h('h1', null, h('span', { 'data-testid': 'entity-name' }, v.name), ' ', typeBadge(v.type), span ? h('span', { class: 'life muted' }, ' ', span) : null),
      h('p', { class: 'muted' }, t('entity.mentions', v.mentions || 0), ' · ',
        h('a', { href: href.search(v.name) }, t('entity.concordance')), ' · ',
        h('a', { href: href.relate(v.name, '') }, t('entity.relate'))),
      aliases.size ? h('dl', { class: 'aliases' }, [...aliases].map(([kind, names]) =>
        h('div', null, h('dt', null, kindLabel(kind)), h('dd', null, names.map((n, i) => [i ? '、' : '', n]))))) : null,
      v.others && v.others.length ? h('p', { class: 'others' }, t('entity.others'), ' ', v.others.map((o, i) => [i ? '、' : '', entityLink(o.name, o.type), ' ', typeBadge(o.type)])) : null);
    const facts = h('section', { class: 'card' },
      h('h2', null, t('entity.facts'), ' ', h('span', { class: 'muted' }, `(${(v.relations || []).length})`)),
      groups.size === 0 ? h('p', { class: 'muted' }, t('entity.nofacts')) : null,
      [...groups].map(([rel, rs]) => h('div', { class: 'fact-group' },
        h('h3', null, h('span', { class: 'rel' }, rel), ' ', h('span', { class: 'muted' }, rs.length)),
        h('ul', { class: 'facts' }, rs.map((r) => factRow(r, v))))));
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
    const person = v.type === '人物' || v.type === 'person';
    fill(page, head, person ? bioCard(v.name, ctx) : null, graphCard, h('div', { class: 'cols' }, h('div', { class: 'col-main' }, facts, mentions), h('div', { class: 'col-side' }, tlCard)));
    getJSON('/api/timeline' + qs({ name: v.name }), { signal: ctx.signal }).then((items) => {
      fill(tl, items.length ? timelineList(items) : h('p', { class: 'muted' }, t('timeline.empty')));
    }).catch((err) => {
      fill(tl, h('p', { class: 'muted' }, t('timeline.failed')));
      showError(err);
    });
  }).catch((err) => {
    fill(page, h('section', { class: 'card' }, h('h1', null, name), h('p', null, err.status === 404 ? t('entity.notfound', name) : t('entity.failed')),
      h('p', null, h('a', { href: href.search(name) }, t('suggest.text', name)))));
    showError(err);
  });
  return page;
}
