import cytoscape from 'cytoscape';
import fcose from 'cytoscape-fcose';
import { h, fill } from './dom.js';
import { t, label } from './i18n.js';
import { getJSON, qs, seg } from './api.js';
import { href, typeColor, showError, go, loading, typeBadge, relColor } from './ui.js';

cytoscape.use(fcose);

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
      'font-family': FONT,
      'font-size': 12,
      color: '#444',
      'text-rotation': 'autorotate',
      'text-background-color': '#fff',
      'text-background-opacity': 0.9,
      'text-background-padding': 2,
    },
  },
  // Relation names show on the edges of the node in hand, or on all when
  // few enough to read.
  { selector: 'edge.named', style: { label: 'data(label)' } },
  { selector: 'edge[color]', style: { 'line-color': 'data(color)', 'target-arrow-color': 'data(color)' } },
  { selector: 'edge.both', style: { 'source-arrow-shape': 'triangle', 'source-arrow-color': 'data(color)' } },
  { selector: 'node.faded, edge.faded', style: { opacity: 0.25 } },
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
  const shown = cy.nodes().filter((n) => n.visible());
  container.setAttribute('data-nodes', String(shown.length));
  container.setAttribute('data-names', shown.map((n) => n.data('name')).join('|'));
}

// Colours for communities, told apart from each other rather than meaning
// anything; a community keeps its colour while the page is open.
const communityPalette = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#42d4f4', '#f032e6', '#9a6324', '#469990', '#808000', '#000075', '#bfef45', '#dcbeff', '#800000', '#aaffc3', '#ffd8b1'];

export function communityColor(id) {
  if (!id) return '#c8c8c8';
  return communityPalette[(Number(id) * 7) % communityPalette.length];
}

// nodeSize grows with the square root of mentions: a node's area with
// how often the texts name it, as in Gephi's default ranking.
export function nodeSize(mentions) {
  return Math.round(16 + Math.min(36, Math.sqrt(mentions || 1) * 1.6));
}

export function nodeData(n) {
  return {
    id: String(n.id),
    name: n.name,
    type: n.type || '',
    community: n.community || 0,
    mentions: n.mentions || 0,
    aliases: n.aliases || [],
    color: n.type ? typeColor(n.type) : '#95a5a6',
    size: nodeSize(n.mentions),
    year: Number.isFinite(n.year) ? n.year : undefined,
  };
}

// fcoseLayout lays a graph out by force, as Gephi's ForceAtlas does:
// dense neighbourhoods spread into clusters instead of a ring.
export function fcoseLayout(fresh) {
  return {
    name: 'fcose',
    quality: 'default',
    randomize: fresh,
    animate: false,
    fit: true,
    padding: 30,
    nodeDimensionsIncludeLabels: true,
    nodeRepulsion: () => 9000,
    idealEdgeLength: () => 90,
    edgeElasticity: () => 0.3,
    nodeSeparation: 90,
    gravity: 0.3,
    numIter: 2500,
  };
}

// readable keeps labels at least MIN_LABEL pixels on screen after a fit
// that zoomed out, and records the smallest on the container for tests.
const MIN_LABEL = 11;
export function readable(cy, container) {
  const zoom = cy.zoom();
  const px = Math.max(12, Math.ceil(MIN_LABEL / zoom));
  cy.style().selector('node').style('font-size', px).selector('edge').style('font-size', px).update();
  container.setAttribute('data-label-px', String(Math.round(px * zoom * 10) / 10));
}

function yearOf(d) {
  return Number.isFinite(d.year) ? d.year : undefined;
}

// graphExplorer shows the neighbourhood of an entity: click a node to
// add its own neighbourhood, double-click (or "open") to go to its page.
// Names of one entity (操, 太祖 for 曹操) come folded into it; the
// relations between two nodes are drawn as one edge that names them all.
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
  const allLabels = h('input', { type: 'checkbox', onchange: () => nameEdges() });
  const status = h('div', { class: 'graph-status muted' }, loading());
  const sel = h('div', { class: 'graph-sel', 'data-testid': 'graph-selection' });
  const wrap = h('div', { class: 'graph-wrap' },
    h('div', { class: 'graph-tools' }, rels, years),
    h('div', { class: 'graph-bar' }, sel,
      h('span', { class: 'spacer' }),
      h('label', { class: 'check small' }, allLabels, ' ', t('graph.labels')),
      h('label', { class: 'small muted' }, t('graph.colour'), ' ', colourSel),
      h('button', { type: 'button', onclick: () => cy && (cy.fit(undefined, 30), readable(cy, box)) }, t('graph.fit')),
      h('button', { type: 'button', onclick: () => cy && relayout(true) }, t('graph.relayout'))),
    box, legend, status,
    h('p', { class: 'muted small' }, t('graph.hint')));
  let cy = null;
  let truncated = false;
  let centreName = name;
  let totals = {}; // the centre's relations by type in the whole graph
  const raw = new Map(); // relation id → edge from the API
  const off = new Set(); // relation types switched off
  const expanded = new Set();
  const pending = new Set();
  let order = []; // relation types, most drawn first: their colours

  const relayout = (fresh) => {
    const els = cy.elements().filter((e) => e.visible());
    // The box may have changed size since the graph was made (a phone's
    // layout settles late): measure it again, then fit what is drawn.
    cy.resize();
    els.layout(fcoseLayout(fresh)).run();
    // Labels grown to stay readable widen the drawing: fit it again.
    for (let i = 0; i < 2; i++) {
      cy.fit(els, 30);
      readable(cy, box);
    }
    countDrawn(cy, box);
  };

  const inWindow = (y) => {
    const lo = fromIn.value === '' ? -Infinity : Number(fromIn.value);
    const hi = toIn.value === '' ? Infinity : Number(toIn.value);
    return y === undefined || (y >= lo && y <= hi);
  };

  // drawEdges groups the relations that pass the filters by node pair,
  // one edge per pair, thicker with more evidence.
  const drawEdges = () => {
    const pairs = new Map();
    for (const e of raw.values()) {
      if (off.has(e.relation) || !inWindow(e.year)) continue;
      const a = String(e.head);
      const b = String(e.tail);
      const k = a < b ? a + ' ' + b : b + ' ' + a;
      if (!pairs.has(k)) pairs.set(k, { source: a, target: b, rels: new Map(), support: 0, forward: false, backward: false, year: undefined });
      const p = pairs.get(k);
      p.rels.set(e.relation, (p.rels.get(e.relation) || 0) + (e.support || 1));
      p.support += e.support || 1;
      if (a === p.source) p.forward = true;
      else p.backward = true;
      if (e.year !== undefined && (p.year === undefined || e.year < p.year)) p.year = e.year;
    }
    const edges = [];
    for (const [k, p] of pairs) {
      const ranked = [...p.rels].sort((x, y) => y[1] - x[1]);
      edges.push({
        group: 'edges',
        classes: p.forward && p.backward ? 'both' : '',
        data: {
          id: 'p' + k, source: p.source, target: p.target, relations: ranked.map((r) => r[0]),
          label: ranked.map((r) => label(r[0]) + (r[1] > 1 ? ' ' + r[1] : '')).join(' · '),
          color: relColor(ranked[0][0], order), w: Math.min(7, 1 + Math.log2(p.support)), year: p.year,
        },
      });
    }
    cy.batch(() => {
      cy.edges().remove();
      cy.add(edges);
      cy.nodes().forEach((n) => {
        const keep = n.hasClass('center') || expanded.has(n.id()) || n.connectedEdges().nonempty();
        n.style('display', keep && inWindow(n.data('year')) ? 'element' : 'none');
      });
    });
    nameEdges();
    countDrawn(cy, box);
    describe();
  };

  // nameEdges writes relation names on the edges of the selected node, or
  // on every edge when asked or when there are few.
  const nameEdges = () => {
    if (!cy) return;
    const picked = cy.nodes(':selected');
    const all = allLabels.checked || cy.edges().length <= 12;
    cy.batch(() => {
      cy.edges().forEach((e) => e.toggleClass('named', all || picked.some((n) => e.source().same(n) || e.target().same(n))));
      cy.elements().removeClass('faded');
      if (picked.nonempty()) cy.elements().not(picked.closedNeighborhood()).addClass('faded');
    });
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
    const sizes = h('span', { class: 'legend-item muted' }, h('span', { class: 'swatch dot-s' }), h('span', { class: 'swatch dot-l' }), ' ', t('graph.size'));
    if (byCommunity) {
      const cs = new Map();
      nodes.forEach((n) => cs.set(n.data('community'), (cs.get(n.data('community')) || 0) + 1));
      fill(legend, [...cs].sort((a, b) => b[1] - a[1]).map(([id, c]) =>
        h('span', { class: 'legend-item', 'data-testid': 'legend-community' }, h('span', { class: 'swatch', style: `background:${communityColor(id)}` }),
          id ? h('a', { href: href.community(id) }, names.get(id) || '#' + id) : t('graph.nocommunity'), h('span', { class: 'muted' }, ' ' + c))), sizes);
      return;
    }
    const types = new Map();
    nodes.forEach((n) => types.set(n.data('type'), (types.get(n.data('type')) || 0) + 1));
    fill(legend, [...types].sort((a, b) => b[1] - a[1]).map(([ty, c]) =>
      h('span', { class: 'legend-item', 'data-testid': 'legend-type' }, h('span', { class: 'swatch', style: `background:${typeColor(ty)}` }), ty ? label(ty) : '?', h('span', { class: 'muted' }, ' ' + c))), sizes);
  };

  // buildFilters lists the relation types drawn, each with its colour, how
  // many of the centre's are drawn of how many the graph holds, and a
  // button that fetches more of that type.
  const buildFilters = () => {
    const drawn = new Map();
    const ofCentre = new Map();
    let withYear = false;
    const c = cy.nodes('.center').id();
    for (const e of raw.values()) {
      drawn.set(e.relation, (drawn.get(e.relation) || 0) + 1);
      if (String(e.head) === c || String(e.tail) === c) ofCentre.set(e.relation, (ofCentre.get(e.relation) || 0) + 1);
      if (e.year !== undefined) withYear = true;
    }
    order = [...drawn].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((x) => x[0]);
    fill(rels, h('legend', null, t('graph.relations')),
      order.map((rel) => {
        const total = totals[rel] || 0;
        const have = ofCentre.get(rel) || 0;
        return h('span', { class: 'rel-item', 'data-testid': 'graph-relation' },
          h('label', { class: 'check' },
            h('input', {
              type: 'checkbox',
              checked: !off.has(rel),
              onchange: (e) => {
                if (e.target.checked) off.delete(rel);
                else off.add(rel);
                drawEdges();
              },
            }), h('span', { class: 'swatch line', style: `background:${relColor(rel, order)}` }), ' ', label(rel),
            h('span', { class: 'muted' }, ' ' + (total > have ? t('graph.ofTotal', have, total) : have))),
          total > have ? h('button', { type: 'button', class: 'link small', 'data-testid': 'graph-more', title: t('graph.more.title', label(rel)), onclick: () => more(rel) }, t('graph.more')) : null);
      }));
    rels.hidden = drawn.size === 0;
    years.hidden = !withYear;
  };
  fromIn.addEventListener('change', () => drawEdges());
  toIn.addEventListener('change', () => drawEdges());

  const select = (n) => {
    const aliases = n.data('aliases') || [];
    fill(sel, typeBadge(n.data('type')), ' ', h('strong', null, n.data('name')),
      aliases.length ? h('span', { class: 'muted small' }, ' ', t('graph.aka', aliases.join('、'))) : null,
      h('span', { class: 'muted small' }, ' ', t('entity.mentions', n.data('mentions'))), ' ',
      h('a', { href: href.entity(n.data('name')), class: 'button' }, t('graph.open')),
      expanded.has(n.id()) ? null : h('button', { type: 'button', onclick: () => expand(n) }, t('graph.expand')));
  };

  const merge = (g, around) => {
    for (const [id, nm] of Object.entries(g.communities || {})) names.set(Number(id), nm);
    const adds = [];
    const have = (id) => cy.getElementById(id).nonempty() || adds.some((a) => a.data.id === id);
    const origin = around ? around.position() : { x: 0, y: 0 };
    let i = 0;
    for (const n of g.nodes || []) {
      const id = String(n.id);
      const old = cy.getElementById(id);
      if (old.nonempty()) {
        if (n.aliases && n.aliases.length) old.data('aliases', [...new Set([...(old.data('aliases') || []), ...n.aliases])]);
        continue;
      }
      if (have(id)) continue;
      const angle = (i++ * 2.4) % (2 * Math.PI); // spread new nodes around their parent
      const d = nodeData(n);
      if (byCommunity) d.color = communityColor(d.community);
      adds.push({ group: 'nodes', data: d, position: { x: origin.x + 80 * Math.cos(angle), y: origin.y + 80 * Math.sin(angle) } });
    }
    cy.add(adds);
    for (const e of g.edges || []) {
      if (cy.getElementById(String(e.head)).empty() || cy.getElementById(String(e.tail)).empty()) continue;
      raw.set(e.id, { head: e.head, tail: e.tail, relation: e.relation, support: e.support || 1, year: yearOf(e) });
    }
    truncated = truncated || !!g.truncated;
  };

  const fetchGraph = (n, extra) => getJSON(`/api/graph/${seg(n)}` + qs({ depth: 1, limit: 150, ...extra }), { signal: ctx.signal });

  const grow = (g, around) => {
    merge(g, around);
    buildFilters();
    drawEdges();
    relayout(false);
  };

  const expand = (node) => {
    const id = node.id();
    if (expanded.has(id) || pending.has(id)) return;
    pending.add(id);
    fill(status, loading(t('graph.expanding', node.data('name'))));
    fetchGraph(node.data('name')).then((g) => {
      if (ctx.signal.aborted || cy.destroyed()) return;
      expanded.add(id);
      node.addClass('expanded');
      grow(g, node);
      if (node.selected()) select(node);
    }).catch((err) => {
      describe();
      showError(err);
    }).finally(() => pending.delete(id));
  };

  // more fetches the centre's relations of one type, beyond the best
  // supported of all types that the first view holds.
  const more = (rel) => {
    fill(status, loading(t('graph.expanding', label(rel))));
    fetchGraph(centreName, { types: rel, limit: 300 }).then((g) => {
      if (ctx.signal.aborted || cy.destroyed()) return;
      off.delete(rel);
      grow(g, cy.nodes('.center'));
    }).catch((err) => {
      describe();
      showError(err);
    });
  };

  fetchGraph(name).then((g) => {
    if (ctx.signal.aborted) return;
    cy = newGraph(box, []);
    ctx.onCleanup(() => cy.destroy());
    totals = g.relations || {};
    merge(g, null);
    const center = cy.getElementById(String(g.center));
    center.addClass('center');
    centreName = center.data('name') || name;
    expanded.add(center.id());
    buildFilters();
    drawEdges();
    relayout(true);
    cy.on('tap', 'node', (e) => {
      select(e.target);
      expand(e.target);
    });
    cy.on('select unselect', 'node', () => nameEdges());
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
