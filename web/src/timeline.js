import { h } from './dom.js';
import { t, label } from './i18n.js';
import { entityLink, citeLink, fmtYear, href, relBadge, relColor, citedSentence } from './ui.js';

// yearKey names the group an item is listed under: its year, else the
// reign it is dated in (建兴五年 under a ruler the era table cannot place).
function yearKey(it) {
  if (it.year != null) return 'y' + it.year;
  return it.reign ? 'r' + it.reign.ruler + '/' + it.reign.year : 'u';
}

function yearHeading(it) {
  if (it.year != null) return h('a', { href: href.timeline(it.year, it.year), title: t('timeline.window') }, fmtYear(it.year));
  if (it.reign) return h('span', { title: t('timeline.reign.help') }, t('timeline.reign', it.reign.ruler, it.reign.year));
  return h('span', null, t('timeline.undated'));
}

// precisionNote says how the year was found, in words, where that is not
// simply "the sentence names the year".
function precisionNote(p) {
  if (!p || p === 'year') return null;
  const k = 'prec.' + p;
  return h('span', { class: 'prec muted small', title: t('timeline.precision') }, t(k) === k ? p : t(k));
}

// timelineList draws dated facts by year; a sentence that states several
// facts is shown once, under all of them, with one citation. Citation
// numbers run through the whole list.
export function timelineList(items) {
  const years = new Map();
  for (const it of items) {
    const k = yearKey(it);
    if (!years.has(k)) years.set(k, { first: it, sentences: new Map() });
    const c = it.citation || {};
    const sk = c.doc_key ? `${c.doc_key}@${c.start}` : 'f' + (it.fact && it.fact.id);
    const group = years.get(k).sentences;
    if (!group.has(sk)) group.set(sk, []);
    group.get(sk).push(it);
  }
  let n = 0;
  return h('ol', { class: 'timeline' }, [...years.values()].map(({ first, sentences }) =>
    h('li', { class: 'tl-year', 'data-year': first.year != null ? String(first.year) : null },
      h('div', { class: 'tl-mark' }, yearHeading(first)),
      h('ul', { class: 'tl-events' }, [...sentences.values()].map((list) => {
        const it = list[0];
        const c = it.citation;
        return h('li', { class: 'tl-event', 'data-testid': 'timeline-event' },
          h('ul', { class: 'tl-facts' }, list.map((x) => {
            const f = x.fact || {};
            return h('li', { class: 'tl-fact', 'data-testid': 'timeline-fact' },
              entityLink(f.head, f.head_type), ' ', relBadge(f.relation), ' ', entityLink(f.tail, f.tail_type));
          })),
          h('div', { class: 'tl-when' },
            it.end_year != null && it.end_year !== it.year ? h('span', { class: 'muted' }, fmtYear(it.year), ' – ', fmtYear(it.end_year), ' ') : null,
            it.expression && it.expression !== String(it.year) ? h('span', { class: 'expr' }, '「', it.expression, '」 ') : null,
            precisionNote(it.precision)),
          c ? h('div', { class: 'tl-sentence' }, citedSentence(c), ' ', citeLink(c, ++n)) : null);
      })))));
}

// Chart geometry, in SVG user units (the SVG scales to its box).
const LANE = 26;
const LEFT = 96;
const RIGHT = 16;
const TOP = 8;
const AXIS = 28;
const LANES = 14;

// timelineChart draws the facts of a window as marks on a time axis, one
// lane for each of the people most often in them (the rest share a last
// lane), coloured by relation; a mark's tooltip is its fact, and a click
// scrolls the list to its year.
export function timelineChart(items, from, to, onYear) {
  const dated = items.filter((it) => it.year != null);
  if (dated.length === 0) return null;
  const lo = Math.min(from, ...dated.map((it) => it.year));
  const hi = Math.max(to, ...dated.map((it) => it.year));
  const count = new Map();
  const typeOf = new Map();
  for (const it of dated) {
    const f = it.fact || {};
    for (const [who, ty] of [[f.head, f.head_type], [f.tail, f.tail_type]]) {
      if (ty !== '人物' && ty !== 'person') continue;
      count.set(who, (count.get(who) || 0) + 1);
      typeOf.set(who, ty);
    }
  }
  const people = [...count].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, LANES).map((x) => x[0]);
  const lanes = [...people, t('timeline.others')];
  const width = 1000;
  const height = TOP + lanes.length * LANE + AXIS;
  const PAD = 14; // keeps the first and last year's marks off the names and the edge
  const x = (y) => LEFT + PAD + ((y - lo) / Math.max(1, hi - lo)) * (width - LEFT - RIGHT - 2 * PAD);
  const ns = 'http://www.w3.org/2000/svg';
  const el = (tag, attrs, ...kids) => {
    const e = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v != null) e.setAttribute(k, String(v));
    for (const c of kids) if (c != null) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  };
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, class: 'tl-chart', 'data-testid': 'timeline-chart', role: 'img', 'aria-label': t('timeline.chart', fmtYear(lo), fmtYear(hi)) });
  lanes.forEach((who, i) => {
    const y = TOP + i * LANE;
    svg.append(el('rect', { x: 0, y, width, height: LANE, class: i % 2 ? 'lane odd' : 'lane' }));
    const name = el('text', { x: LEFT - 8, y: y + LANE / 2 + 5, class: 'lane-name', 'text-anchor': 'end' }, who);
    if (i < people.length) {
      const a = el('a', { href: href.entity(who) }, name);
      svg.append(a);
    } else {
      svg.append(name);
    }
  });
  // Ticks at a round step that gives about ten of them.
  const span = Math.max(1, hi - lo);
  const step = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500].find((s) => span / s <= 12) || 1000;
  const axisY = TOP + lanes.length * LANE;
  svg.append(el('line', { x1: LEFT, x2: width - RIGHT, y1: axisY, y2: axisY, class: 'axis' }));
  for (let y = Math.ceil(lo / step) * step; y <= hi; y += step) {
    svg.append(el('line', { x1: x(y), x2: x(y), y1: TOP, y2: axisY + 4, class: 'tick' }));
    svg.append(el('text', { x: x(y), y: axisY + 18, class: 'tick-label', 'text-anchor': 'middle' }, fmtYear(y)));
  }
  // One mark per fact and lane; marks of one lane and year stack a little.
  const rels = new Map();
  for (const it of dated) rels.set(it.fact.relation, (rels.get(it.fact.relation) || 0) + 1);
  const order = [...rels].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map((r) => r[0]);
  const stack = new Map();
  let marks = 0;
  for (const it of dated) {
    const f = it.fact || {};
    const on = new Set([f.head, f.tail].map((p) => people.indexOf(p)).filter((i) => i >= 0));
    if (on.size === 0) on.add(people.length);
    for (const lane of on) {
      const k = lane + '/' + it.year;
      const s = stack.get(k) || 0;
      stack.set(k, s + 1);
      if (s >= 5) continue; // enough to show the year is busy
      const cx = x(it.year) + (s % 2 ? 1 : -1) * Math.ceil(s / 2) * 3;
      const cy = TOP + lane * LANE + LANE / 2;
      const mark = el('circle', { cx, cy, r: 4.5, class: 'mark', fill: relColor(f.relation, order), 'data-year': it.year },
        el('title', null, `${fmtYear(it.year)} ${f.head} ${label(f.relation)} ${f.tail}`));
      mark.addEventListener('click', () => onYear && onYear(it.year));
      svg.append(mark);
      marks++;
    }
  }
  svg.setAttribute('data-marks', String(marks));
  // The palette repeats after twelve relations: the legend lists those.
  const legend = h('div', { class: 'legend' }, order.slice(0, 12).map((r) =>
    h('span', { class: 'legend-item' }, h('span', { class: 'swatch', style: `background:${relColor(r, order)}` }), label(r), h('span', { class: 'muted' }, ' ' + rels.get(r)))));
  return h('div', { class: 'tl-chart-box' }, h('h2', null, t('timeline.chart.title')), svg, legend);
}
