import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, qs } from '../api.js';
import { href, loading, showError, go, fmtYear } from '../ui.js';
import { timelineList } from '../timeline.js';

function readingView(tm, use) {
  const years = tm.resolved || tm.year ? [{ year: tm.year, end: tm.end_year, label: [tm.dynasty, tm.emperor, tm.era].filter(Boolean).join(' ') }] : [];
  return h('li', null,
    h('strong', null, tm.expr || ''), ' ',
    h('span', { class: 'muted small' }, [tm.calendar, tm.precision].filter(Boolean).join(' · ')),
    tm.day ? h('span', { class: 'chip' }, tm.day) : null,
    years.length ? h('div', null, years.map((y) => [h('button', { type: 'button', class: 'link', title: t('date.use'), onclick: () => use(y.year, y.end || y.year) }, fmtYear(y.year), y.end && y.end !== y.year ? ' – ' + fmtYear(y.end) : ''), ' ', h('span', { class: 'muted' }, y.label)])) : null,
    tm.candidates && tm.candidates.length ? h('div', null, h('div', { class: 'muted small' }, t('date.candidates')),
      h('ul', { class: 'cands' }, tm.candidates.map((c) => h('li', null,
        h('button', { type: 'button', class: 'link', title: t('date.use'), onclick: () => use(c.year, c.year) }, fmtYear(c.year)), ' ',
        [c.dynasty, c.emperor, c.era].filter(Boolean).join(' '), ' ', h('span', { class: 'muted small' }, c.reason || ''))))) : null,
    !years.length && !(tm.candidates && tm.candidates.length) ? h('div', { class: 'muted small' }, t('date.unresolved')) : null);
}

export function timelinePage(ctx) {
  const from = ctx.query.get('from') || '';
  const to = ctx.query.get('to') || '';
  const fromIn = h('input', { type: 'number', class: 'num', value: from, 'aria-label': t('timeline.from'), placeholder: '208' });
  const toIn = h('input', { type: 'number', class: 'num', value: to, 'aria-label': t('timeline.to'), placeholder: '234' });
  const out = h('div');
  const exprIn = h('input', { type: 'text', placeholder: '建兴十二年', 'aria-label': t('date.expr') });
  const dynIn = h('input', { type: 'text', placeholder: t('date.dynasty.placeholder'), 'aria-label': t('date.dynasty'), class: 'short' });
  const dateOut = h('div');
  const use = (a, b) => go(href.timeline(a, b));
  const page = h('div', { class: 'timeline-page cols' },
    h('div', { class: 'col-main' },
      h('section', { class: 'card' },
        h('h1', null, t('timeline.title')),
        h('form', {
          class: 'row wrap',
          onsubmit: (e) => {
            e.preventDefault();
            if (fromIn.value !== '' && toIn.value !== '') go(href.timeline(fromIn.value, toIn.value));
          },
        }, h('label', null, t('timeline.from'), ' ', fromIn), h('label', null, t('timeline.to'), ' ', toIn), h('button', { type: 'submit', class: 'primary' }, t('timeline.show')),
        h('span', { class: 'muted small' }, t('timeline.bce'))),
        out)),
    h('div', { class: 'col-side' },
      h('section', { class: 'card' },
        h('h2', null, t('date.title')),
        h('form', {
          class: 'row wrap',
          onsubmit: (e) => {
            e.preventDefault();
            const expr = exprIn.value.trim();
            if (!expr) return;
            fill(dateOut, loading());
            getJSON('/api/date' + qs({ expr, dynasty: dynIn.value.trim() }), { signal: ctx.signal }).then((r) => {
              const times = r.times || [];
              fill(dateOut, times.length ? h('ul', { class: 'readings' }, times.map((tm) => readingView(tm, use))) : h('p', { class: 'muted' }, t('date.none', expr)));
            }).catch((err) => {
              fill(dateOut);
              showError(err);
            });
          },
        }, exprIn, dynIn, h('button', { type: 'submit' }, t('date.convert'))),
        dateOut)));
  if (from === '' || to === '') {
    fill(out, h('p', { class: 'muted' }, t('timeline.pick')));
    return page;
  }
  fill(out, loading());
  getJSON('/api/timeline' + qs({ from, to, limit: 1000 }), { signal: ctx.signal }).then((items) => {
    fill(out,
      h('p', { class: 'muted' }, t('timeline.range', fmtYear(Number(from)), fmtYear(Number(to)), items.length)),
      items.length ? timelineList(items) : null);
  }).catch((err) => {
    fill(out);
    showError(err);
  });
  return page;
}
