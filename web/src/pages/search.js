import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, qs } from '../api.js';
import { href, loading, showError, go } from '../ui.js';

const PAGE = 50;

export function searchPage(ctx) {
  // q as on the ask page, so that either address a reader guesses works.
  const text = ctx.query.get('text') || ctx.query.get('q') || '';
  const offset = Math.max(0, parseInt(ctx.query.get('offset') || '0', 10) || 0);
  const width = Math.min(200, Math.max(5, parseInt(ctx.query.get('context') || '30', 10) || 30));
  const input = h('input', { type: 'search', value: text, placeholder: t('search.text.placeholder'), 'aria-label': t('search.text.placeholder'), required: true });
  const ctxInput = h('input', { type: 'number', min: 5, max: 200, value: String(width), class: 'num', 'aria-label': t('search.context') });
  const out = h('div');
  const page = h('div', null,
    h('section', { class: 'card' },
      h('h1', null, t('search.title')),
      h('p', { class: 'muted' }, t('search.lead')),
      h('form', {
        class: 'row',
        onsubmit: (e) => {
          e.preventDefault();
          if (input.value.trim()) go('#/search' + qs({ text: input.value.trim(), context: ctxInput.value !== '30' ? ctxInput.value : '' }));
        },
      }, input, h('label', null, t('search.context'), ' ', ctxInput), h('button', { type: 'submit' }, t('search.go')))),
    out);
  if (!text.trim()) return page;
  document.title = text + ' · annals';
  fill(out, loading());
  getJSON('/api/search' + qs({ text, limit: PAGE, offset, context: width }), { signal: ctx.signal }).then((r) => {
    const occ = r.occurrences || [];
    const link = (off) => '#/search' + qs({ text, offset: off || '', context: width !== 30 ? width : '' });
    const pager = h('div', { class: 'pager' },
      offset > 0 ? h('a', { href: link(Math.max(0, offset - PAGE)) }, t('prev')) : null,
      h('span', { class: 'muted' }, occ.length ? t('search.range', offset + 1, offset + occ.length) : t('search.none', text)),
      offset + occ.length < r.total ? h('a', { href: link(offset + PAGE) }, t('next')) : null);
    fill(out, h('section', { class: 'card' },
      h('h2', null, t('search.hits', r.total, text), ' ', h('a', { class: 'small', href: href.entity(text) }, t('search.asEntity', text))),
      pager,
      h('table', { class: 'kwic', 'data-testid': 'kwic' },
        h('colgroup', null, h('col', { class: 'src' }), h('col'), h('col', { class: 'match' }), h('col')),
        h('tbody', null, occ.map((o) =>
          h('tr', null,
            h('td', { class: 'kwic-src', title: o.cite || o.doc_key }, h('a', { href: href.doc(o.doc_key, o.start, o.end) }, o.cite || o.doc_key)),
            h('td', { class: 'kwic-left', title: o.left }, h('span', null, o.left)),
            h('td', { class: 'kwic-match' }, h('a', { href: href.doc(o.doc_key, o.start, o.end) }, o.match)),
            h('td', { class: 'kwic-right', title: o.right }, o.right))))),
      occ.length > 20 && r.total > PAGE ? pager.cloneNode(true) : null));
  }).catch((err) => {
    fill(out);
    showError(err);
  });
  return page;
}
