import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, seg } from '../api.js';
import { href, loading, showError, typeBadge, entityLink, citeLink, evidenceLine, fmtYear, kindLabel, relBadge } from '../ui.js';
import { newGraph, countDrawn, nodeData } from '../graph.js';

// years writes a community's span, "" when undated.
function years(c) {
  if (c.from == null && c.to == null) return '';
  if (c.from === c.to || c.to == null) return fmtYear(c.from);
  return `${fmtYear(c.from)} – ${fmtYear(c.to)}`;
}

function keywordChips(c, n) {
  return (c.keywords || []).slice(0, n).map((k) => h('span', { class: 'chip', title: t('community.weight', k.weight.toFixed(3)) }, k.term));
}

// communitiesPage lists the communities indexing found, largest first,
// each with its central members and keywords; a filter narrows them by
// name, member or keyword.
export function communitiesPage(ctx) {
  document.title = t('communities.title') + ' · annals';
  const filter = h('input', { type: 'search', class: 'wide', placeholder: t('communities.filter'), 'aria-label': t('communities.filter'), 'data-testid': 'community-filter' });
  const list = h('div', null, loading());
  const page = h('div', { class: 'communities' },
    h('section', { class: 'card' },
      h('h1', null, t('communities.title')),
      h('p', { class: 'muted' }, t('communities.about')),
      filter, list));
  getJSON('/api/communities', { signal: ctx.signal }).then((cs) => {
    cs = cs || [];
    const rows = cs.map((c) => {
      const text = [c.name, ...(c.members || []).map((m) => m.name), ...(c.keywords || []).map((k) => k.term)].join(' ');
      const row = h('li', { class: 'community-row', 'data-testid': 'community' },
        h('a', { href: href.community(c.id), class: 'community-name' }, c.name),
        h('span', { class: 'muted small' }, ' ', t('community.size', c.size), years(c) ? ' · ' + years(c) : ''),
        h('div', { class: 'members' }, (c.members || []).slice(0, 8).map((m, i) => [i ? '、' : '', entityLink(m.name, m.type)])),
        h('div', null, keywordChips(c, 6)));
      return { row, text };
    });
    const count = h('p', { class: 'muted' });
    const ul = h('ul', { class: 'community-list' }, rows.map((r) => r.row));
    const apply = () => {
      const q = filter.value.trim();
      let shown = 0;
      for (const r of rows) {
        r.row.hidden = q !== '' && !r.text.includes(q);
        if (!r.row.hidden) shown++;
      }
      fill(count, t('communities.count', shown, rows.length));
    };
    filter.addEventListener('input', apply);
    apply();
    fill(list, cs.length ? [count, ul] : h('p', { class: 'muted' }, t('communities.none')));
  }).catch((err) => {
    fill(list);
    showError(err);
  });
  return page;
}

// factLine is one triple of the tree with its citation.
function factLine(f, n) {
  const ev = (f.evidence || [])[0];
  return h('li', { class: 'fact', 'data-testid': 'tree-triple' },
    h('span', { class: 'triple' }, entityLink(f.head, f.head_type), h('span', { class: 'arrow' }, ' → '), relBadge(f.relation), h('span', { class: 'arrow' }, ' → '), entityLink(f.tail, f.tail_type)),
    ev ? [' ', citeLink(ev, n)] : null);
}

// tree shows the report as the four levels of the knowledge tree: the
// community, its keywords, the triples that hold them, and the attributes
// of the members those triples name.
function tree(c) {
  const facts = c.facts || [];
  const attrs = c.attributes || [];
  const byEntity = new Map();
  for (const a of attrs) {
    if (!byEntity.has(a.entity)) byEntity.set(a.entity, []);
    byEntity.get(a.entity).push(a);
  }
  const named = new Set(facts.flatMap((f) => [f.head, f.tail]));
  const attrList = [...byEntity].filter(([name]) => named.has(name) || facts.length === 0);
  const rest = [...byEntity].filter(([name]) => !(named.has(name) || facts.length === 0));
  let n = 0;
  const attrItems = (entries) => entries.map(([name, as]) => h('li', { 'data-testid': 'tree-attribute' },
    h('strong', null, name), ' ',
    as.map((a, i) => [i ? '；' : '', h('span', { class: 'muted small' }, kindLabel(a.kind)), ' ', a.value, a.evidence ? [' ', citeLink(a.evidence, ++n + facts.length)] : null])));
  return h('div', { class: 'tree', 'data-testid': 'community-tree' },
    h('details', { open: true },
      h('summary', null, h('span', { class: 'level' }, t('tree.community')), ' ', h('strong', null, c.name), ' ', h('span', { class: 'muted small' }, t('community.size', c.size), years(c) ? ' · ' + years(c) : '')),
      h('details', { open: true },
        h('summary', null, h('span', { class: 'level' }, t('tree.keywords')), ' ', keywordChips(c, 12)),
        h('details', { open: true },
          h('summary', null, h('span', { class: 'level' }, t('tree.triples')), ' ', h('span', { class: 'muted small' }, facts.length)),
          facts.length ? h('ul', { class: 'facts' }, facts.map((f, i) => factLine(f, i + 1))) : h('p', { class: 'muted' }, t('tree.notriples')),
          h('details', { open: true },
            h('summary', null, h('span', { class: 'level' }, t('tree.attributes')), ' ', h('span', { class: 'muted small' }, attrs.length)),
            attrList.length || rest.length ? h('ul', { class: 'attrs' }, attrItems(attrList), attrItems(rest)) : h('p', { class: 'muted' }, t('tree.noattributes')))))));
}

// communityGraph draws the community's central members and the facts
// between them.
function communityGraph(c, ctx) {
  const box = h('div', { class: 'graph', 'data-testid': 'community-graph', 'data-nodes': '0', role: 'img', 'aria-label': t('community.graph', c.name) });
  requestAnimationFrame(() => {
    if (ctx.signal.aborted) return;
    // The members the links join, most central first; the rest of the
    // forty would float unattached.
    const members = (c.all_members || c.members || []).slice(0, 40);
    const links = c.links || [];
    const joined = new Set(links.flatMap((l) => [l.head, l.tail]));
    const shown = members.filter((m, i) => i === 0 || joined.has(m.entity_id));
    const els = shown.map((m) => ({ group: 'nodes', data: nodeData({ id: m.entity_id, name: m.name, type: m.type, mentions: 1 + Math.round(m.centrality * 400) }) }));
    const have = new Set(shown.map((m) => m.entity_id));
    for (const l of links) {
      if (have.has(l.head) && have.has(l.tail)) {
        els.push({ group: 'edges', data: { id: 'e' + l.id, source: String(l.head), target: String(l.tail), relation: l.relation, w: Math.min(5, 1 + Math.log2(Math.max(1, l.support || 1))) } });
      }
    }
    const cy = newGraph(box, els);
    ctx.onCleanup(() => cy.destroy());
    // Many links among few nodes: relation names only on the selected.
    cy.style().selector('edge').style('label', '').selector('edge:selected').style('label', 'data(relation)').update();
    cy.layout({ name: 'cose', animate: false, randomize: false, fit: true, padding: 24, nodeRepulsion: () => 40000, idealEdgeLength: () => 120, numIter: 1500 }).run();
    countDrawn(cy, box);
    cy.on('dbltap', 'node', (e) => { location.hash = href.entity(e.target.data('name')); });
  });
  return box;
}

// writtenReport is the report an LLM wrote, each sentence with its
// citations.
function writtenReport(w) {
  let n = 0;
  return h('div', { class: 'written', 'data-testid': 'written-report' },
    h('h2', null, w.title, ' ', h('span', { class: 'muted small' }, t('community.written', w.model || 'LLM'))),
    h('p', null, (w.summary || []).map((l) => [l.text, ' ', (l.evidence || []).map((ev) => citeLink(ev, ++n)), ' '])));
}

// communityPage shows one community: its knowledge tree, summary with
// citations, graph and every member by centrality.
export function communityPage(ctx) {
  const id = ctx.arg;
  const page = h('div', { class: 'community' }, loading());
  getJSON(`/api/communities/${seg(id)}`, { signal: ctx.signal }).then((c) => {
    document.title = c.name + ' · annals';
    const members = c.all_members || c.members || [];
    const top = members.length ? members[0].centrality || 1 : 1;
    fill(page,
      h('section', { class: 'card' },
        h('p', { class: 'muted small' }, h('a', { href: href.communities() }, t('communities.title')), ' › ', t('community.method', c.method)),
        h('h1', { 'data-testid': 'community-name' }, c.name),
        c.written ? writtenReport(c.written) : null,
        (c.summary || []).length ? h('div', { class: 'summary' }, h('h2', null, t('community.summary')), c.summary.map((ev, i) => evidenceLine(ev, i + 1))) : null),
      h('section', { class: 'card' }, h('h2', null, t('community.tree')), tree(c)),
      h('section', { class: 'card' }, h('h2', null, t('graph.title')), communityGraph(c, ctx), h('p', { class: 'muted small' }, t('community.graphhint'))),
      h('section', { class: 'card' },
        h('h2', null, t('community.members'), ' ', h('span', { class: 'muted' }, `(${members.length})`)),
        h('ol', { class: 'members-list' }, members.map((m) => h('li', null,
          entityLink(m.name, m.type), ' ', typeBadge(m.type), ' ',
          h('span', { class: 'bar', style: `width:${Math.max(2, Math.round(80 * (m.centrality || 0) / top))}px`, title: t('community.centrality', (m.centrality || 0).toFixed(3)) }))))));
  }).catch((err) => {
    fill(page, h('section', { class: 'card' }, h('h1', null, t('community.notfound', id)), h('a', { href: href.communities() }, t('communities.title'))));
    showError(err);
  });
  return page;
}
