import cytoscape from 'cytoscape';
import { h, fill } from './dom.js';
import { t } from './i18n.js';
import { getJSON, qs, seg } from './api.js';
import { href, typeColor, showError, go, loading, typeBadge } from './ui.js';

// Canvas text does not follow CSS: name the CJK-capable system fonts.
const FONT = 'system-ui, -apple-system, "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Noto Sans CJK SC", "Source Han Sans SC", sans-serif';

const baseStyle = [
  {
    selector: 'node',
    style: {
      'background-color': 'data(color)',
      label: 'data(name)',
      width: 'data(size)',
      height: 'data(size)',
      'font-family': FONT,
      'font-size': 12,
      color: '#1d1d1f',
      'text-valign': 'bottom',
      'text-margin-y': 3,
      'text-outline-color': '#fff',
      'text-outline-width': 2,
      'min-zoomed-font-size': 6,
    },
  },
  { selector: 'node.center', style: { 'border-width': 4, 'border-color': '#1d1d1f', 'font-size': 15, 'font-weight': 'bold' } },
  { selector: 'node.expanded', style: { 'border-width': 2, 'border-color': '#555', 'border-style': 'double' } },
  { selector: 'node.end', style: { 'border-width': 5, 'border-color': '#f1c40f', 'font-size': 15, 'font-weight': 'bold' } },
  { selector: 'node:selected', style: { 'overlay-color': '#f1c40f', 'overlay-opacity': 0.35, 'overlay-padding': 6 } },
  {
    selector: 'edge',
    style: {
      width: 'data(w)',
      'line-color': '#b7b7b7',
      'target-arrow-color': '#b7b7b7',
      'target-arrow-shape': 'triangle',
      'curve-style': 'bezier',
      label: 'data(relation)',
      'font-family': FONT,
      'font-size': 10,
      color: '#555',
      'text-rotation': 'autorotate',
      'text-background-color': '#fff',
      'text-background-opacity': 0.85,
      'text-background-padding': 1,
      'min-zoomed-font-size': 7,
    },
  },
  { selector: 'edge.cooccur', style: { 'line-style': 'dashed', 'target-arrow-shape': 'none' } },
  { selector: 'edge:selected', style: { 'line-color': '#d35400', 'target-arrow-color': '#d35400' } },
];

// newGraph makes a cytoscape instance in a container already on the page.
export function newGraph(container, elements) {
  return cytoscape({
    container,
    elements,
    style: baseStyle,
    minZoom: 0.2,
    maxZoom: 3,
    boxSelectionEnabled: false,
  });
}

// countDrawn records on the container how many nodes are drawn: they are
// on a canvas, where a test cannot count them.
export function countDrawn(cy, container) {
  container.setAttribute('data-nodes', String(cy.nodes().filter((n) => n.visible()).length));
}

// Colours for communities, told apart from each other rather than meaning
// anything; a community keeps its colour while the page is open.
const communityPalette = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990', '#808000', '#000075', '#bfef45', '#dcbeff', '#800000', '#aaffc3', '#ffd8b1'];

export function communityColor(id) {
  if (!id) return '#c8c8c8';
  return communityPalette[(Number(id) * 7) % communityPalette.length];
}

export function nodeData(n) {
  return {
    id: String(n.id),
    name: n.name,
    type: n.type || '',
    community: n.community || 0,
    color: n.type ? typeColor(n.type) : '#95a5a6',
    size: Math.round(18 + Math.min(30, Math.sqrt(n.mentions || 1) * 3.5)),
    year: Number.isFinite(n.year) ? n.year : undefined,
  };
}

function yearOf(d) {
  return Number.isFinite(d.year) ? d.year : undefined;
}

// graphExplorer shows the neighbourhood of an entity: click a node to
// add its own neighbourhood, double-click (or "open") to go to its page.
export function graphExplorer(name, ctx, testid = 'graph') {
  const box = h('div', { class: 'graph', 'data-testid': testid, 'data-nodes': '0', role: 'img', 'aria-label': t('graph.aria', name) });
  const rels = h('fieldset', { class: 'graph-rels', hidden: true }, h('legend', null, t('graph.relations')));
  const fromIn = h('input', { type: 'number', class: 'num', 'aria-label': t('graph.from') });
  const toIn = h('input', { type: 'number', class: 'num', 'aria-label': t('graph.to') });
  const years = h('fieldset', { class: 'graph-years', hidden: true }, h('legend', null, t('graph.years')), fromIn, ' – ', toIn);
  const legend = h('div', { class: 'legend' });
  let byCommunity = false;
  const names = new Map(); // community id → name, from the API
  const colourSel = h('select', { 'aria-label': t('graph.colour'), 'data-testid': 'graph-colour', onchange: (e) => { byCommunity = e.target.value === 'community'; recolour(); } },
    h('option', { value: 'type' }, t('graph.bytype')), h('option', { value: 'community' }, t('graph.bycommunity')));
  const status = h('div', { class: 'graph-status muted' }, loading());
  const sel = h('div', { class: 'graph-sel' });
  const wrap = h('div', { class: 'graph-wrap' },
    h('div', { class: 'graph-tools' }, rels, years),
    h('div', { class: 'graph-bar' }, sel,
      h('span', { class: 'spacer' }),
      h('label', { class: 'small muted' }, t('graph.colour'), ' ', colourSel),
      h('button', { type: 'button', onclick: () => cy && cy.fit(undefined, 20) }, t('graph.fit')),
      h('button', { type: 'button', onclick: () => cy && relayout(true) }, t('graph.relayout'))),
    box, legend, status,
    h('p', { class: 'muted small' }, t('graph.hint')));
  let cy = null;
  let truncated = false;
  const off = new Set(); // relation types switched off
  const expanded = new Set();
  const pending = new Set();

  // The first view is rings by distance from the centre; once nodes are
  // expanded, a force layout starting from where they are.
  const relayout = (fresh) => {
    const els = cy.elements().filter((e) => e.visible());
    const opts = fresh && expanded.size <= 1
      ? { name: 'concentric', concentric: (n) => (n.hasClass('center') ? 2 : 1), levelWidth: () => 1, minNodeSpacing: 18, animate: false, fit: true, padding: 24 }
      : { name: 'cose', animate: false, randomize: fresh, fit: true, padding: 24, nodeRepulsion: () => 12000, idealEdgeLength: () => 100, numIter: 1500 };
    els.layout(opts).run();
    countDrawn(cy, box);
  };

  const applyFilters = () => {
    const lo = fromIn.value === '' ? -Infinity : Number(fromIn.value);
    const hi = toIn.value === '' ? Infinity : Number(toIn.value);
    const inWindow = (d) => {
      const y = yearOf(d);
      return y === undefined || (y >= lo && y <= hi);
    };
    const edgeOn = (e) => !off.has(e.data('relation')) && inWindow(e.data());
    cy.batch(() => {
      cy.edges().forEach((e) => {
        e.style('display', edgeOn(e) ? 'element' : 'none');
      });
      cy.nodes().forEach((n) => {
        const keep = n.hasClass('center') || expanded.has(n.id()) || n.connectedEdges().some(edgeOn);
        n.style('display', keep && inWindow(n.data()) ? 'element' : 'none');
      });
    });
    countDrawn(cy, box);
    describe();
  };

  const recolour = () => {
    if (!cy) return;
    cy.batch(() => cy.nodes().forEach((n) => {
      n.data('color', byCommunity ? communityColor(n.data('community')) : n.data('type') ? typeColor(n.data('type')) : '#95a5a6');
    }));
    describe();
  };

  const describe = () => {
    const nodes = cy.nodes().filter((n) => n.visible());
    const edges = cy.edges().filter((e) => e.visible());
    fill(status, t('graph.count', nodes.length, edges.length), truncated ? ' ' + t('graph.truncated') : '');
    if (byCommunity) {
      const cs = new Map();
      nodes.forEach((n) => cs.set(n.data('community'), (cs.get(n.data('community')) || 0) + 1));
      fill(legend, [...cs].sort((a, b) => b[1] - a[1]).map(([id, c]) =>
        h('span', { class: 'legend-item', 'data-testid': 'legend-community' }, h('span', { class: 'swatch', style: `background:${communityColor(id)}` }),
          id ? h('a', { href: href.community(id) }, names.get(id) || '#' + id) : t('graph.nocommunity'), h('span', { class: 'muted' }, ' ' + c))));
      return;
    }
    const types = new Map();
    nodes.forEach((n) => types.set(n.data('type'), (types.get(n.data('type')) || 0) + 1));
    fill(legend, [...types].sort((a, b) => b[1] - a[1]).map(([ty, c]) =>
      h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${typeColor(ty)}` }), ty || '?', h('span', { class: 'muted' }, ' ' + c))));
  };

  const buildFilters = () => {
    const counts = new Map();
    let withYear = false;
    cy.edges().forEach((e) => {
      counts.set(e.data('relation'), (counts.get(e.data('relation')) || 0) + 1);
      if (yearOf(e.data()) !== undefined) withYear = true;
    });
    cy.nodes().forEach((n) => {
      if (yearOf(n.data()) !== undefined) withYear = true;
    });
    fill(rels, h('legend', null, t('graph.relations')),
      [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([rel, c]) =>
        h('label', { class: 'check' },
          h('input', {
            type: 'checkbox',
            checked: !off.has(rel),
            onchange: (e) => {
              if (e.target.checked) off.delete(rel);
              else off.add(rel);
              applyFilters();
            },
          }), ' ', rel, h('span', { class: 'muted' }, ' ' + c))));
    rels.hidden = counts.size === 0;
    // The time range only shows when the graph carries years.
    years.hidden = !withYear;
  };
  fromIn.addEventListener('change', () => applyFilters());
  toIn.addEventListener('change', () => applyFilters());

  const select = (n) => {
    fill(sel, typeBadge(n.data('type')), ' ', h('strong', null, n.data('name')), ' ',
      h('a', { href: href.entity(n.data('name')), class: 'button' }, t('graph.open')),
      expanded.has(n.id()) ? null : h('button', { type: 'button', onclick: () => expand(n) }, t('graph.expand')));
  };

  const merge = (g, around) => {
    for (const [id, name] of Object.entries(g.communities || {})) names.set(Number(id), name);
    const adds = [];
    const have = (id) => cy.getElementById(id).nonempty() || adds.some((a) => a.data.id === id);
    const origin = around ? around.position() : { x: 0, y: 0 };
    let i = 0;
    for (const n of g.nodes || []) {
      const id = String(n.id);
      if (have(id)) continue;
      const angle = (i++ * 2.4) % (2 * Math.PI); // spread new nodes around their parent
      const d = nodeData(n);
      if (byCommunity) d.color = communityColor(d.community);
      adds.push({ group: 'nodes', data: d, position: { x: origin.x + 60 * Math.cos(angle), y: origin.y + 60 * Math.sin(angle) } });
    }
    for (const e of g.edges || []) {
      const id = 'e' + e.id;
      if (have(id) || !have(String(e.head)) || !have(String(e.tail))) continue;
      adds.push({ group: 'edges', data: { id, source: String(e.head), target: String(e.tail), relation: e.relation, status: e.status, w: Math.min(5, 1 + Math.log2(Math.max(1, e.support || 1))), year: yearOf(e) } });
    }
    cy.add(adds);
    truncated = truncated || !!g.truncated;
  };

  const fetchGraph = (n) => getJSON(`/api/graph/${seg(n)}` + qs({ depth: 1, limit: 150 }), { signal: ctx.signal });

  const expand = (node) => {
    const id = node.id();
    if (expanded.has(id) || pending.has(id)) return;
    pending.add(id);
    fill(status, loading(t('graph.expanding', node.data('name'))));
    fetchGraph(node.data('name')).then((g) => {
      if (ctx.signal.aborted || cy.destroyed()) return;
      expanded.add(id);
      node.addClass('expanded');
      merge(g, node);
      buildFilters();
      applyFilters();
      relayout(false);
      describe();
      if (node.selected()) select(node);
    }).catch((err) => {
      describe();
      showError(err);
    }).finally(() => pending.delete(id));
  };

  fetchGraph(name).then((g) => {
    if (ctx.signal.aborted) return;
    cy = newGraph(box, []);
    ctx.onCleanup(() => cy.destroy());
    merge(g, null);
    const center = cy.getElementById(String(g.center));
    center.addClass('center');
    expanded.add(center.id());
    buildFilters();
    applyFilters();
    relayout(true);
    describe();
    cy.on('tap', 'node', (e) => {
      select(e.target);
      expand(e.target);
    });
    cy.on('dbltap', 'node', (e) => go(href.entity(e.target.data('name'))));
    cy.on('tap', (e) => {
      if (e.target === cy) fill(sel);
    });
  }).catch((err) => {
    fill(status, t('graph.failed'));
    showError(err);
  });
  return wrap;
}
