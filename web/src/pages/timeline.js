import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, qs } from '../api.js';
import { href, loading, showError, go, fmtYear } from '../ui.js';
import { timelineList, timelineChart } from '../timeline.js';

const PAGE = 200;
const CHART = 3000;

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
  const exprIn = h('input', { type: 'text', placeholder: '建兴十二年 · 208', 'aria-label': t('date.expr') });
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
              if (r.names) {
                // A year in numerals: how the histories name it.
                fill(dateOut, h('div', { 'data-testid': 'year-names' },
                  h('p', null, h('button', { type: 'button', class: 'link', title: t('date.use'), onclick: () => use(r.year, r.year) }, fmtYear(r.year))),
                  r.names.length ? h('ul', { class: 'readings' }, r.names.map((n) => h('li', null, h('strong', null, n.name), ' ', h('span', { class: 'muted' }, [n.dynasty, n.emperor].filter(Boolean).join(' ')))))
                    : h('p', { class: 'muted' }, t('date.nonames'))));
                return;
              }
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
  const offset = Math.max(0, parseInt(ctx.query.get('offset') || '0', 10) || 0);
  const chart = h('div', { class: 'tl-chart-card' });
  fill(out, loading());
  getJSON('/api/timeline' + qs({ from, to, limit: PAGE + 1, offset: offset || '' }), { signal: ctx.signal }).then((items) => {
    const more = items.length > PAGE;
    const shown = items.slice(0, PAGE);
    const link = (off) => '#/timeline' + qs({ from, to, offset: off || '' });
    const pager = () => h('div', { class: 'pager' },
      offset > 0 ? h('a', { href: link(Math.max(0, offset - PAGE)), 'data-testid': 'timeline-prev' }, t('prev')) : null,
      h('span', { class: 'muted' }, shown.length ? t('timeline.page', offset + 1, offset + shown.length) : ''),
      more ? h('a', { href: link(offset + PAGE), 'data-testid': 'timeline-next' }, t('next')) : null);
    const list = shown.length ? timelineList(shown) : null;
    fill(out,
      h('p', { class: 'muted' }, t('timeline.window.range', fmtYear(Number(from)), fmtYear(Number(to)))),
      shown.length ? [pager(), list, more || offset > 0 ? pager() : null] : h('p', { class: 'muted' }, t('timeline.empty')));
    // The chart shows the whole window (up to CHART facts), not one page.
    getJSON('/api/timeline' + qs({ from, to, limit: CHART, fields: 'marks' }), { signal: ctx.signal }).then((all) => {
      fill(chart, timelineChart(all, Number(from), Number(to), (y) => {
        const li = list && list.querySelector(`[data-year="${y}"]`);
        if (li) li.scrollIntoView({ behavior: 'smooth', block: 'start' });
        else go(href.timeline(y, y));
      }), all.length >= CHART ? h('p', { class: 'muted small' }, t('timeline.chart.cut', CHART)) : null);
      chart.parentNode.hidden = all.length === 0;
    }).catch((err) => showError(err));
  }).catch((err) => {
    fill(out);
    showError(err);
  });
  return h('div', null, h('section', { class: 'card', hidden: true }, chart), page);
}
