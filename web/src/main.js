import './app.css';
import { h, fill } from './dom.js';
import { t, lang, setLang, onLang } from './i18n.js';
import { getToken, setToken } from './api.js';
import { href, suggestBox, setMessageArea, clearMessages, hideTip, go } from './ui.js';
import { homePage } from './pages/home.js';
import { searchPage } from './pages/search.js';
import { entityPage } from './pages/entity.js';
import { askPage } from './pages/ask.js';
import { relatePage } from './pages/relate.js';
import { docPage } from './pages/doc.js';
import { documentsPage } from './pages/documents.js';
import { timelinePage } from './pages/timeline.js';
import { communitiesPage, communityPage } from './pages/communities.js';
import { bioPage } from './bio.js';

const pages = {
  '': homePage,
  search: searchPage,
  entity: entityPage,
  ask: askPage,
  relate: relatePage,
  doc: docPage,
  documents: documentsPage,
  timeline: timelinePage,
  communities: communitiesPage,
  community: communityPage,
  bio: bioPage,
};

const navItems = [
  ['search', 'nav.search', '#/search'],
  ['ask', 'nav.ask', '#/ask'],
  ['relate', 'nav.relate', '#/relate'],
  ['documents', 'nav.documents', '#/documents'],
  ['timeline', 'nav.timeline', '#/timeline'],
  ['communities', 'nav.communities', '#/communities'],
];

function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // a malformed escape is kept as typed
  }
}

// parseRoute reads the fragment: #/NAME/REST?QUERY, REST decoded as text.
export function parseRoute(hash) {
  let raw = hash.replace(/^#\/?/, '');
  const qi = raw.indexOf('?');
  const query = new URLSearchParams(qi < 0 ? '' : raw.slice(qi + 1));
  raw = qi < 0 ? raw : raw.slice(0, qi);
  const parts = raw.split('/');
  return { name: decode(parts[0]), arg: parts.slice(1).map(decode).join('/'), query };
}

const header = h('header', { class: 'top' });
const settings = h('div', { class: 'settings', hidden: true });
const messages = h('div', { class: 'messages', 'aria-live': 'polite' });
const main = h('main', { id: 'main', tabindex: '-1' });
setMessageArea(messages);

let current = null; // the page shown: its abort controller and cleanups

// isOn says whether a nav item is the page shown, or the list the page
// shown belongs to (a community is under communities).
const isOn = (route, name) => !!route && (route.name === name || (name === 'communities' && route.name === 'community'));

function renderHeader(route) {
  const input = h('input', { type: 'search', class: 'search-input', 'data-testid': 'search-input', placeholder: t('search.placeholder'), 'aria-label': t('search.placeholder') });
  const box = suggestBox(input, {
    onPick: (e) => {
      input.value = '';
      go(href.entity(e.name));
    },
    onEnter: (text) => {
      input.value = '';
      go(href.entity(text));
    },
    withText: (text) => {
      input.value = '';
      go(href.search(text));
    },
  });
  const nav = h('nav', { class: 'nav', 'aria-label': t('nav.label') },
    navItems.map(([name, key, link]) =>
      h('a', { href: link, class: isOn(route, name) ? 'on' : null, 'aria-current': isOn(route, name) ? 'page' : null }, t(key))));
  // The home page has its own, larger search box: one is enough.
  const home = route && route.name === '';
  fill(header,
    h('a', { class: 'brand', href: '#/' }, 'annals'),
    home ? h('div', { class: 'search' }) : h('div', { class: 'search' }, box),
    nav,
    h('div', { class: 'tools' },
      h('button', { type: 'button', class: 'lang', 'data-testid': 'lang', title: t('lang.title'), onclick: () => setLang(lang() === 'zh' ? 'en' : 'zh') }, t('lang.other')),
      h('button', { type: 'button', class: 'gear', title: t('settings.title'), 'aria-label': t('settings.title'), 'aria-expanded': String(!settings.hidden), onclick: toggleSettings }, '⚙')));
}

function renderSettings() {
  const inp = h('input', { type: 'password', value: getToken(), autocomplete: 'off', 'aria-label': t('settings.token'), placeholder: t('settings.token.placeholder') });
  const saved = h('span', { class: 'muted' });
  fill(settings,
    h('form', {
      class: 'row',
      onsubmit: (e) => {
        e.preventDefault();
        setToken(inp.value.trim());
        saved.textContent = inp.value.trim() ? t('settings.saved') : t('settings.cleared');
      },
    },
    h('label', null, t('settings.token'), ' ', inp),
    h('button', { type: 'submit' }, t('save')),
    h('button', { type: 'button', onclick: () => { inp.value = ''; setToken(''); saved.textContent = t('settings.cleared'); } }, t('clear')),
    saved),
    h('p', { class: 'muted small' }, t('settings.help')));
}

function toggleSettings(force) {
  settings.hidden = typeof force === 'boolean' ? !force : !settings.hidden;
  if (!settings.hidden) {
    renderSettings();
    settings.querySelector('input').focus();
  }
  renderHeader(parseRoute(location.hash));
}

document.addEventListener('annals:settings', () => toggleSettings(true));

function render() {
  if (current) {
    current.ctl.abort();
    for (const f of current.cleanups) f();
  }
  hideTip();
  clearMessages();
  const route = parseRoute(location.hash);
  const page = pages[route.name];
  const ctl = new AbortController();
  current = { ctl, cleanups: [] };
  const ctx = {
    ...route,
    signal: ctl.signal,
    onCleanup: (f) => current.cleanups.push(f),
  };
  renderHeader(route);
  document.title = 'annals';
  fill(main);
  if (!page) {
    fill(main, h('section', { class: 'card' }, h('h1', null, t('notfound.title')), h('p', null, t('notfound.body')), h('a', { href: '#/' }, t('notfound.home'))));
    return;
  }
  try {
    const node = page(ctx);
    if (node) main.append(node);
  } catch (err) {
    // A page that throws while building leaves its message, not a blank.
    fill(main, h('pre', { class: 'msg error', 'data-testid': 'error' }, String(err && err.stack ? err.stack : err)));
    throw err;
  }
}

function start() {
  document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
  document.body.replaceChildren(h('a', { class: 'skip', href: '#main', onclick: (e) => { e.preventDefault(); main.focus(); } }, t('skip')), header, settings, messages, main);
  window.addEventListener('hashchange', () => {
    render();
    window.scrollTo(0, 0);
  });
  onLang(() => {
    document.documentElement.lang = lang() === 'zh' ? 'zh-CN' : 'en';
    if (!settings.hidden) renderSettings();
    render();
  });
  render();
}

start();
