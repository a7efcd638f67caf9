import { h, fill } from '../dom.js';
import { t, label } from '../i18n.js';
import { getJSON, docPath } from '../api.js';
import { href, loading, showError, typeColor } from '../ui.js';

// segments cuts [from, to) of the text at mention boundaries: mentions
// become links, the rest plain text. Mentions that overlap an earlier one
// are left as text.
function segments(chars, mentions, from, to, withLinks) {
  const out = [];
  let at = from;
  const plain = (a, b) => {
    if (b > a) out.push(chars.slice(a, b).join(''));
  };
  if (withLinks) {
    let lastEnd = -1;
    for (const m of mentions) {
      if (m.start < lastEnd || m.end <= m.start) continue; // overlaps an earlier mention
      lastEnd = m.end;
      if (m.end <= from || m.start >= to) continue;
      const s = Math.max(m.start, from);
      const e = Math.min(m.end, to);
      plain(at, s);
      // A time expression is dated, not an entity to open: marked, not linked.
      if (m.type === '时间' || m.type === 'time') {
        out.push(h('span', { class: 'mention time', title: `${m.surface} · ${label(m.type)}` }, chars.slice(s, e).join('')));
        at = e;
        continue;
      }
      out.push(h('a', {
        href: href.entity(m.name || m.surface),
        class: 'mention',
        'data-testid': 'mention',
        style: `--c:${typeColor(m.type)}`,
        title: `${m.name || m.surface} · ${label(m.type || '')}`,
      }, chars.slice(s, e).join('')));
      at = e;
    }
  }
  plain(at, to);
  return out;
}

export function docPage(ctx) {
  const key = ctx.arg;
  const page = h('div', { class: 'doc' }, loading());
  if (!key) {
    fill(page, h('p', null, h('a', { href: '#/documents' }, t('nav.documents'))));
    return page;
  }
  const start = parseInt(ctx.query.get('start') || '', 10);
  const end = parseInt(ctx.query.get('end') || '', 10);
  getJSON('/api/document/' + docPath(key), { signal: ctx.signal }).then((d) => {
    document.title = (d.title || d.key) + ' · annals';
    // Offsets count code points (checked against the API's mentions), so
    // the text is cut as an array of them.
    const chars = Array.from(d.text || '');
    const mentions = (d.mentions || []).slice().sort((a, b) => a.start - b.start || b.end - a.end);
    const hasSpan = Number.isInteger(start) && Number.isInteger(end) && end > start && start >= 0 && start < chars.length;
    const s = hasSpan ? start : 0;
    const e = hasSpan ? Math.min(end, chars.length) : 0;
    const reader = h('div', { class: 'reader', 'data-testid': 'reader', lang: d.lang && d.lang !== 'und' ? (d.lang === 'lzh' ? 'zh' : d.lang) : null });
    let passage = null;
    const draw = (links) => {
      if (hasSpan) {
        passage = h('mark', { class: 'passage', 'data-testid': 'passage', id: 'passage', tabindex: '-1' }, segments(chars, mentions, s, e, links));
        fill(reader, segments(chars, mentions, 0, s, links), passage, segments(chars, mentions, e, chars.length, links));
      } else {
        fill(reader, segments(chars, mentions, 0, chars.length, links));
      }
    };
    draw(true);
    const types = new Map();
    for (const m of mentions) types.set(m.type, (types.get(m.type) || 0) + 1);
    const toggle = h('input', { type: 'checkbox', checked: true, onchange: () => draw(toggle.checked) });
    fill(page,
      h('section', { class: 'card doc-head' },
        h('h1', null, d.title || d.key),
        h('p', { class: 'muted' },
          (d.section || []).join(' · '), ' · ', h('code', null, d.key), ' · ', d.lang || '', ' · ', t('doc.chars', d.chars != null ? d.chars : chars.length),
          hasSpan ? [' · ', h('a', { href: '#passage', onclick: (ev) => { ev.preventDefault(); passage && passage.scrollIntoView({ block: 'center' }); } }, t('doc.passage', s, e))] : null),
        h('div', { class: 'row wrap' },
          h('label', { class: 'check' }, toggle, ' ', t('doc.mentions', mentions.length)),
          h('span', { class: 'legend', 'data-testid': 'reader-legend' }, h('span', { class: 'muted' }, t('doc.colours')), [...types].sort((a, b) => b[1] - a[1]).map(([ty, c]) =>
            h('span', { class: 'legend-item' }, h('span', { class: ty === '时间' || ty === 'time' ? 'swatch line dotted' : 'swatch line', style: `background:${typeColor(ty)}` }), ty ? label(ty) : '?', h('span', { class: 'muted' }, ' ' + c)))))),
      h('article', { class: 'card' }, reader));
    if (passage) {
      const p = passage;
      requestAnimationFrame(() => {
        if (p.isConnected) p.scrollIntoView({ block: 'center' });
      });
    }
  }).catch((err) => {
    fill(page, h('section', { class: 'card' }, h('h1', null, key), h('p', null, err.status === 404 ? t('doc.notfound') : t('doc.failed')), h('a', { href: '#/documents' }, t('nav.documents'))));
    if (err.status !== 404) showError(err);
  });
  return page;
}
