import { h } from './dom.js';
import { t } from './i18n.js';
import { entityLink, citeLink, fmtYear, href } from './ui.js';

// timelineList draws dated facts as a vertical list by year, each fact
// with its citation; numbers run through the whole list.
export function timelineList(items) {
  const years = new Map();
  for (const it of items) {
    const k = it.year;
    if (!years.has(k)) years.set(k, []);
    years.get(k).push(it);
  }
  let n = 0;
  return h('ol', { class: 'timeline' }, [...years].map(([year, list]) =>
    h('li', { class: 'tl-year' },
      h('div', { class: 'tl-mark' }, h('a', { href: href.timeline(year, year), title: t('timeline.window') }, fmtYear(year))),
      h('ul', { class: 'tl-events' }, list.map((it) => {
        const f = it.fact || {};
        const c = it.citation;
        return h('li', { class: 'tl-event', 'data-testid': 'timeline-event' },
          entityLink(f.head, f.head_type), ' ', h('span', { class: 'rel' }, f.relation), ' ', entityLink(f.tail, f.tail_type),
          it.end_year != null && it.end_year !== it.year ? h('span', { class: 'muted' }, ' – ', fmtYear(it.end_year)) : null,
          it.expression && it.expression !== String(it.year) ? h('span', { class: 'expr muted' }, ' 「', it.expression, '」') : null,
          it.precision && it.precision !== 'year' ? h('span', { class: 'prec muted', title: t('timeline.precision') }, ' ', t('prec.' + it.precision) === 'prec.' + it.precision ? it.precision : t('prec.' + it.precision)) : null,
          ' ', c ? citeLink(c, ++n) : null,
          c ? h('div', { class: 'tl-sentence muted' }, c.sentence) : null);
      })))));
}
