import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, qs } from '../api.js';
import { href, loading, showError, suggestBox, typeBadge, typeColor, go, entityLink } from '../ui.js';

const counts = ['documents', 'chunks', 'characters', 'entities', 'mentions', 'relations', 'evidence', 'aliases'];

function tally(obj) {
  return Object.entries(obj || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function homePage(ctx) {
  const input = h('input', { type: 'search', class: 'big-input', placeholder: t('home.placeholder'), 'aria-label': t('home.placeholder') });
  const box = suggestBox(input, {
    onPick: (e) => go(href.entity(e.name)),
    onEnter: (text) => go(href.entity(text)),
    withText: (text) => go(href.search(text)),
    signal: ctx.signal,
  });
  const stats = h('div', null, loading());
  const top = h('div');
  const page = h('div', { class: 'home' },
    h('section', { class: 'hero' },
      h('h1', null, t('home.title')),
      h('p', { class: 'muted' }, t('home.lead')),
      box,
      h('p', { class: 'examples muted' }, t('home.try'), ' ',
        ['诸葛亮', '孔明', '曹操', 'Zhuge Liang'].map((n) => [h('a', { href: href.entity(n) }, n), ' ']),
        h('a', { href: '#/ask' }, t('nav.ask')), ' · ', h('a', { href: href.relate('刘备', '诸葛亮') }, '刘备 ↔ 诸葛亮'))),
    h('section', { class: 'card' }, h('h2', null, t('home.stats')), stats),
    h('section', { class: 'card' }, h('h2', null, t('home.top')), top));
  getJSON('/api/stats', { signal: ctx.signal }).then((s) => {
    fill(stats,
      h('dl', { class: 'counts' }, counts.filter((k) => s[k] != null).map((k) => h('div', null, h('dt', null, t('stat.' + k)), h('dd', null, Number(s[k]).toLocaleString())))),
      h('h3', null, t('home.types')),
      h('ul', { class: 'chips' }, tally(s.entity_types).map(([k, n]) => h('li', null, typeBadge(k), ' ', h('span', { class: 'muted' }, n)))),
      h('h3', null, t('home.relations')),
      h('ul', { class: 'chips' }, tally(s.relation_types).map(([k, n]) => h('li', null, h('span', { class: 'rel' }, k), ' ', h('span', { class: 'muted' }, n)))),
      s.languages ? [h('h3', null, t('home.languages')), h('ul', { class: 'chips' }, tally(s.languages).map(([k, n]) => h('li', null, k, ' ', h('span', { class: 'muted' }, n))))] : null);
  }).catch((err) => {
    fill(stats);
    showError(err);
  });
  getJSON('/api/entities' + qs({ limit: 30 }), { signal: ctx.signal }).then((list) => {
    fill(top, h('ul', { class: 'chips' }, list.map((e) => h('li', null, entityLink(e.name, e.type), ' ', h('span', { class: 'muted', style: `color:${typeColor(e.type)}` }, e.type)))));
  }).catch((err) => {
    fill(top);
    showError(err);
  });
  setTimeout(() => input.focus(), 0);
  return page;
}
