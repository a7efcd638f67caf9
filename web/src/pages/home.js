import { h, fill } from '../dom.js';
import { t, label, langName } from '../i18n.js';
import { getJSON, qs } from '../api.js';
import { href, loading, showError, suggestBox, typeBadge, typeColor, go, entityLink, relBadge } from '../ui.js';

const counts = ['documents', 'chunks', 'characters', 'entities', 'mentions', 'relations', 'evidence', 'aliases'];

function tally(obj) {
  return Object.entries(obj || {}).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

export function homePage(ctx) {
  // The header leaves out its search box here: this is the page's one.
  const input = h('input', { type: 'search', class: 'big-input', 'data-testid': 'search-input', placeholder: t('home.placeholder'), 'aria-label': t('home.placeholder') });
  const box = suggestBox(input, {
    onPick: (e) => go(href.entity(e.name)),
    onEnter: (text) => go(href.entity(text)),
    withText: (text) => go(href.search(text)),
    signal: ctx.signal,
  });
  // Examples come from the corpus: its most mentioned people, and the
  // first two of them to relate.
  const examples = h('p', { class: 'examples muted', 'data-testid': 'examples' });
  const stats = h('div', null, loading());
  const top = h('div');
  const page = h('div', { class: 'home' },
    h('section', { class: 'hero' },
      h('h1', null, t('home.title')),
      h('p', { class: 'muted' }, t('home.lead')),
      box,
      examples),
    h('section', { class: 'card' }, h('h2', null, t('home.stats')), stats),
    h('section', { class: 'card' }, h('h2', null, t('home.top')), top));
  getJSON('/api/stats', { signal: ctx.signal }).then((s) => {
    fill(stats,
      h('dl', { class: 'counts' }, counts.filter((k) => s[k] != null).map((k) => h('div', null, h('dt', null, t('stat.' + k)), h('dd', null, Number(s[k]).toLocaleString())))),
      h('h3', null, t('home.types')),
      h('ul', { class: 'chips' }, tally(s.entity_types).map(([k, n]) => h('li', null, typeBadge(k), ' ', h('span', { class: 'muted' }, n)))),
      h('h3', null, t('home.relations')),
      h('ul', { class: 'chips' }, tally(s.relation_types).map(([k, n]) => h('li', null, relBadge(k), ' ', h('span', { class: 'muted' }, n)))),
      s.languages ? [h('h3', null, t('home.languages')), h('ul', { class: 'chips' }, tally(s.languages).map(([k, n]) => h('li', null, h('span', { title: k }, langName(k)), ' ', h('span', { class: 'muted' }, n))))] : null);
  }).catch((err) => {
    fill(stats);
    showError(err);
  });
  getJSON('/api/entities' + qs({ limit: 30 }), { signal: ctx.signal }).then((list) => {
    fill(top, h('ul', { class: 'chips' }, list.map((e) => h('li', null, entityLink(e.name, e.type), ' ', h('span', { class: 'muted', style: `color:${typeColor(e.type)}` }, label(e.type))))));
    const people = list.filter((e) => e.type === '人物' || e.type === 'person').slice(0, 4);
    if (people.length) {
      fill(examples, t('home.try'), ' ', people.map((e) => [h('a', { href: href.entity(e.name) }, e.name), ' ']),
        h('a', { href: '#/ask' }, t('nav.ask')),
        people.length > 1 ? [' · ', h('a', { href: href.relate(people[0].name, people[1].name) }, people[0].name, ' ↔ ', people[1].name)] : null);
    }
  }).catch((err) => {
    fill(top);
    showError(err);
  });
  setTimeout(() => input.focus(), 0);
  return page;
}
