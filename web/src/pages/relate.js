import { h, fill } from '../dom.js';
import { t, label } from '../i18n.js';
import { sendJSON } from '../api.js';
import { href, loading, showError, suggestBox, go, entityLink, evidenceLine, typeBadge, relBadge } from '../ui.js';
import { newGraph, countDrawn, nodeData } from '../graph.js';

function hopView(hop, cite) {
  const rel = hop.relation ? label(hop.relation) : t('relate.cooccur');
  const arrow = hop.relation ? (hop.from_is_head === false ? ` ←${rel}— ` : ` —${rel}→ `) : ` ·${rel}· `;
  return h('li', { class: 'hop', 'data-testid': 'hop' },
    h('div', { class: 'hop-line' },
      entityLink(hop.from_name), h('span', { class: 'rel' }, arrow), entityLink(hop.to_name),
      hop.source ? h('span', { class: 'chip' }, t('relate.source.' + hop.source) === 'relate.source.' + hop.source ? hop.source : t('relate.source.' + hop.source)) : null,
      hop.status && hop.status !== 'extracted' ? h('span', { class: 'chip' }, hop.status) : null,
      hop.why ? h('span', { class: 'muted small' }, ' ', hop.why) : null),
    hop.evidence && hop.evidence.doc_key ? evidenceLine(hop.evidence, cite(hop.evidence)) : null);
}

// drawPaths puts every path's entities and steps in one graph, the two
// ends marked.
function drawPaths(box, r, ctx) {
  const nodes = new Map();
  const edges = new Map();
  const typeOf = new Map([[r.head && r.head.id, r.head && r.head.type], [r.tail && r.tail.id, r.tail && r.tail.type]]);
  for (const p of r.paths || []) {
    (p.entities || []).forEach((id, i) => {
      if (!nodes.has(id)) nodes.set(id, { id, name: (p.names || [])[i] || String(id), type: typeOf.get(id) || '', mentions: 1 });
    });
    for (const hop of p.hops || []) {
      const [s, d] = hop.from_is_head === false ? [hop.to, hop.from] : [hop.from, hop.to];
      const key = `${s}-${d}-${hop.relation || ''}`;
      if (!edges.has(key)) edges.set(key, { data: { id: 'p' + edges.size, source: String(s), target: String(d), relation: hop.relation || t('relate.cooccur'), w: 2 }, classes: hop.relation ? '' : 'cooccur' });
    }
  }
  const els = [...nodes.values()].map((n) => {
    const d = nodeData(n);
    d.size = 30;
    return { group: 'nodes', data: d, classes: n.id === (r.head && r.head.id) || n.id === (r.tail && r.tail.id) ? 'end' : '' };
  });
  for (const e of edges.values()) els.push({ group: 'edges', ...e });
  const cy = newGraph(box, els);
  ctx.onCleanup(() => cy.destroy());
  cy.layout({ name: 'breadthfirst', roots: r.head ? [String(r.head.id)] : undefined, directed: false, spacingFactor: 1.1, padding: 24, animate: false }).run();
  cy.on('dbltap', 'node', (e) => go(href.entity(e.target.data('name'))));
  countDrawn(cy, box);
}

export function relatePage(ctx) {
  const head = ctx.query.get('head') || '';
  const tail = ctx.query.get('tail') || '';
  const hIn = h('input', { type: 'text', value: head, 'data-testid': 'relate-head', placeholder: t('relate.head'), 'aria-label': t('relate.head'), required: true });
  const tIn = h('input', { type: 'text', value: tail, 'data-testid': 'relate-tail', placeholder: t('relate.tail'), 'aria-label': t('relate.tail'), required: true });
  const submitNow = () => {
    if (hIn.value.trim() && tIn.value.trim()) go(href.relate(hIn.value.trim(), tIn.value.trim()));
  };
  const hBox = suggestBox(hIn, { onPick: (e) => { hIn.value = e.name; tIn.focus(); }, signal: ctx.signal });
  const tBox = suggestBox(tIn, { onPick: (e) => { tIn.value = e.name; }, signal: ctx.signal });
  const out = h('div');
  const page = h('div', { class: 'relate' },
    h('section', { class: 'card' },
      h('h1', null, t('relate.title')),
      h('p', { class: 'muted' }, t('relate.lead')),
      h('form', {
        class: 'row wrap',
        onsubmit: (e) => {
          e.preventDefault();
          submitNow();
        },
      }, hBox, h('span', { class: 'swap', 'aria-hidden': 'true' }, '↔'), tBox,
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'relate-submit' }, t('relate.submit')))),
    out);
  if (!head || !tail) {
    setTimeout(() => (head ? tIn : hIn).focus(), 0);
    return page;
  }
  document.title = `${head} ↔ ${tail} · annals`;
  fill(out, loading(t('relate.working')));
  sendJSON('/api/relate', 'POST', { head, tail, top: 5 }, { signal: ctx.signal }).then((r) => {
    let n = 0;
    const seen = new Map();
    const cite = (ev) => {
      const k = `${ev.doc_key}@${ev.start}-${ev.end}`;
      if (!seen.has(k)) seen.set(k, ++n);
      return seen.get(k);
    };
    const paths = r.paths || [];
    const graph = h('div', { class: 'graph small-graph', 'data-testid': 'relate-graph', 'data-nodes': '0' });
    const findings = r.findings || [];
    const steps = r.steps || [];
    fill(out,
      h('section', { class: 'card verdict' },
        h('h2', null, entityLink(r.head.name, r.head.type), ' ', typeBadge(r.head.type), ' ↔ ', entityLink(r.tail.name, r.tail.type), ' ', typeBadge(r.tail.type)),
        r.verdict ? h('p', { class: 'verdict-text' }, r.verdict) : null,
        findings.length ? h('ul', { class: 'findings' }, findings.map((f) => h('li', null,
          h('div', null, h('strong', null, f.text || `${f.head} ${f.relation} ${f.tail}`), ' ',
            h('span', { class: 'muted small' }, '(', f.head, ' ', relBadge(f.relation), ' ', f.tail, ')'),
            f.status ? h('span', { class: 'chip' }, t('status.' + f.status) === 'status.' + f.status ? f.status : t('status.' + f.status)) : null,
            f.paths && f.paths.length ? h('span', { class: 'muted small' }, ' ', t('relate.viaPaths', f.paths.join(', '))) : null),
          f.rejected ? h('div', { class: 'muted small', 'data-testid': 'rejected' }, t('relate.rejected', f.rejected)) : null,
          (f.evidence || []).map((ev) => evidenceLine(ev, cite(ev)))))) : null),
      steps.length ? h('section', { class: 'card', 'data-testid': 'steps' },
        h('h2', null, t('relate.steps', steps.length)),
        h('p', { class: 'muted small' }, t('relate.stepsHint')),
        h('ul', { class: 'findings' }, steps.map((f) => h('li', null,
          h('div', null, f.head, ' ', relBadge(f.relation), ' ', f.tail, ' ',
            f.status ? h('span', { class: 'chip' }, t('status.' + f.status) === 'status.' + f.status ? f.status : t('status.' + f.status)) : null,
            f.paths && f.paths.length ? h('span', { class: 'muted small' }, ' ', t('relate.viaPaths', f.paths.join(', '))) : null),
          f.rejected ? h('div', { class: 'muted small' }, t('relate.rejected', f.rejected)) : null)))) : null,
      paths.length
        ? h('section', { class: 'card' }, h('h2', null, t('relate.graph')), graph, h('p', { class: 'muted small' }, t('relate.graphHint')))
        : h('section', { class: 'card' }, h('p', null, t('relate.nopath'))),
      paths.length ? h('section', { class: 'card' },
        h('h2', null, t('relate.paths', paths.length)),
        h('ol', { class: 'paths' }, paths.map((p, i) => h('li', { class: 'path', 'data-testid': 'path', id: 'path-' + (i + 1) },
          h('div', { class: 'path-head' }, (p.names || []).join(' → '), ' ', h('span', { class: 'muted small' }, t('relate.score', Number(p.score || 0).toFixed(1)))),
          h('ol', { class: 'hops' }, (p.hops || []).map((hop) => hopView(hop, cite))))))) : null,
      (r.left_out && r.left_out.length) || r.dropped ? h('section', { class: 'card' },
        h('details', null,
          h('summary', null, t('relate.leftout', (r.left_out || []).length, r.dropped || 0)),
          h('ol', { class: 'paths' }, (r.left_out || []).map((p) => h('li', null,
            h('div', { class: 'path-head muted' }, (p.names || []).join(' → ')),
            h('ol', { class: 'hops' }, (p.hops || []).map((hop) => hopView(hop, cite)))))))) : null);
    if (paths.length) drawPaths(graph, r, ctx);
  }).catch((err) => {
    fill(out);
    showError(err);
  });
  return page;
}
