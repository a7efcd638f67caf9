import { h, add, fill, debounce, marked } from './dom.js';
import { t, label } from './i18n.js';
import { getJSON, qs, docPath } from './api.js';

// Routes live in the URL's fragment; each part is encoded, so a name or
// key holding '/', '?' or '#' survives the trip.
export const href = {
  home: () => '#/',
  entity: (name) => '#/entity/' + encodeURIComponent(name),
  bio: (name) => '#/bio/' + encodeURIComponent(name),
  doc: (key, start, end) =>
    '#/doc/' + encodeURIComponent(key) + (Number.isInteger(start) && Number.isInteger(end) && end > start ? `?start=${start}&end=${end}` : ''),
  search: (text) => '#/search' + qs({ text }),
  relate: (head, tail) => '#/relate' + qs({ head, tail }),
  timeline: (from, to) => '#/timeline' + qs({ from, to }),
  communities: () => '#/communities',
  community: (id) => '#/community/' + encodeURIComponent(String(id)),
};

// Colours for the entity types annals's schemas name, Chinese and
// English alike; any other type gets one from its name.
const typeColors = {
  人物: '#c0392b', person: '#c0392b',
  地点: '#2e86c1', place: '#2e86c1',
  职官: '#8e44ad', office: '#8e44ad',
  时间: '#7f8c8d', time: '#7f8c8d',
  爵位: '#d68910', title: '#d68910',
  社会集团: '#16a085', organisation: '#16a085', organization: '#16a085', group: '#16a085',
  文献: '#6e2c00', work: '#6e2c00',
  事件: '#c2185b', event: '#c2185b',
};
const spare = ['#1f618d', '#117a65', '#9a7d0a', '#6c3483', '#a04000', '#2874a6', '#1e8449', '#b03a2e'];

export function typeColor(type) {
  if (typeColors[type]) return typeColors[type];
  let n = 0;
  for (const c of String(type || '')) n = (n * 31 + c.codePointAt(0)) >>> 0;
  return spare[n % spare.length];
}

// Edge colours by relation, told apart rather than meaning anything; the
// relation list beside the graph is their legend.
const relPalette = ['#8e5b3e', '#2e86c1', '#c0392b', '#16a085', '#8e44ad', '#d68910', '#2c3e50', '#27ae60', '#b03a2e', '#5d6d7e', '#a04000', '#1f618d'];

export function relColor(rel, order) {
  const i = order.indexOf(rel);
  return i < 0 ? '#b7b7b7' : relPalette[i % relPalette.length];
}

export function typeBadge(type) {
  return h('span', { class: 'badge', style: `--c:${typeColor(type)}`, title: type || null }, type ? label(type) : '?');
}

export function entityLink(name, type, attrs = {}) {
  return h('a', { href: href.entity(name), class: 'ent', style: type ? `--c:${typeColor(type)}` : null, ...attrs }, name);
}

// fmtYear writes an astronomical year: 0 is 1 BCE, −121 is 122 BCE.
export function fmtYear(y) {
  if (y == null || !Number.isFinite(y)) return '';
  return y > 0 ? t('year.ce', y) : t('year.bce', 1 - y);
}

export function lifeSpan(born, died) {
  if (born == null && died == null) return '';
  return `${born == null ? '?' : fmtYear(born)} – ${died == null ? '?' : fmtYear(died)}`;
}

// Messages: a visible area under the header; errors are never dropped.
let messages;
export function setMessageArea(el) {
  messages = el;
}

export function clearMessages() {
  if (messages) messages.replaceChildren();
}

export function showError(err, extra) {
  if (err && err.name === 'AbortError') return;
  console.warn(err);
  let text = err && err.message ? err.message : String(err);
  if (err && err.status === 401) text = t('err.token') + ' (' + text + ')';
  const box = h('div', { class: 'msg error', 'data-testid': 'error', role: 'alert' },
    h('strong', null, err && err.status ? t('err.status', err.status) : t('err.title')), ' ', text, extra || null,
    h('button', { type: 'button', class: 'close', 'aria-label': t('close'), onclick: () => box.remove() }, '×'));
  if (err && err.status === 401) {
    add(box, ' ', h('button', { type: 'button', class: 'link', onclick: () => document.dispatchEvent(new CustomEvent('annals:settings')) }, t('settings.open')));
  }
  if (messages) {
    messages.append(box);
    box.scrollIntoView({ block: 'nearest' });
  }
  return box;
}

export function showNote(text) {
  const box = h('div', { class: 'msg note', role: 'status' }, text,
    h('button', { type: 'button', class: 'close', 'aria-label': t('close'), onclick: () => box.remove() }, '×'));
  if (messages) messages.append(box);
  return box;
}

export function loading(text) {
  return h('div', { class: 'loading', role: 'status' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text || t('loading'));
}

// The citation tooltip: one element, moved to whichever citation the
// pointer or focus is on.
let tip;
function tipEl() {
  if (!tip) {
    tip = h('div', { class: 'tip', role: 'tooltip', 'data-testid': 'citation-tip', hidden: true });
    document.body.append(tip);
  }
  return tip;
}

export function hideTip() {
  tipFor = null;
  if (tip) tip.hidden = true;
}

// Documents fetched for the context around cited sentences, the last few
// kept.
const docCache = new Map();
function docText(key) {
  if (docCache.has(key)) {
    const p = docCache.get(key);
    docCache.delete(key);
    docCache.set(key, p);
    return p;
  }
  const p = getJSON('/api/document/' + docPath(key)).then((d) => Array.from(d.text || ''));
  p.catch(() => docCache.delete(key));
  docCache.set(key, p);
  if (docCache.size > 8) docCache.delete(docCache.keys().next().value);
  return p;
}

// citedSentence is an evidence sentence with its head and tail marked.
export function citedSentence(ev, attrs) {
  const rel = (x) => (x && x.end > x.start ? { start: x.start - ev.start, end: x.end - ev.start } : null);
  const head = rel(ev.head);
  const tail = rel(ev.tail);
  return h('span', attrs || null, marked(ev.sentence || '', [head && { ...head, cls: 'hl-head' }, tail && { ...tail, cls: 'hl-tail' }]));
}

const CONTEXT = 40; // characters shown either side of a cited sentence

let tipFor = null;
function showTip(anchor, ev) {
  const el = tipEl();
  tipFor = anchor;
  const before = h('span', { class: 'tip-ctx' });
  const after = h('span', { class: 'tip-ctx' });
  fill(el,
    h('div', { class: 'tip-cite' }, ev.cite || ev.doc_key || '', ' ', h('span', { class: 'muted' }, `[${ev.start}, ${ev.end})`)),
    h('div', { class: 'tip-text' }, before, citedSentence(ev, { class: 'tip-sentence' }), after),
    h('div', { class: 'tip-hint muted' }, t('cite.open')));
  el.hidden = false;
  place(anchor);
  if (ev.doc_key && Number.isInteger(ev.start) && Number.isInteger(ev.end)) {
    docText(ev.doc_key).then((chars) => {
      if (tipFor !== anchor || el.hidden) return;
      const a = Math.max(0, ev.start - CONTEXT);
      const b = Math.min(chars.length, ev.end + CONTEXT);
      before.textContent = (a > 0 ? '…' : '') + chars.slice(a, ev.start).join('');
      after.textContent = chars.slice(ev.end, b).join('') + (b < chars.length ? '…' : '');
      place(anchor);
    }).catch(() => {
      // the sentence alone is still shown
    });
  }
}

function place(anchor) {
  const el = tipEl();
  const r = anchor.getBoundingClientRect();
  const w = Math.min(440, window.innerWidth - 16);
  el.style.maxWidth = w + 'px';
  const left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - w - 8));
  el.style.left = left + 'px';
  el.style.top = r.bottom + window.scrollY + 6 + 'px';
  const tr = el.getBoundingClientRect();
  if (tr.bottom > window.innerHeight && r.top > tr.height + 12) {
    el.style.top = r.top + window.scrollY - tr.height - 6 + 'px';
  }
}

// citeLink is a numbered link to the passage an evidence sentence comes
// from; hovering or focusing it shows the sentence.
export function citeLink(ev, n) {
  const a = h('a', { href: href.doc(ev.doc_key, ev.start, ev.end), class: 'cite', 'data-testid': 'citation', 'aria-label': t('cite.label', n, ev.cite || ev.doc_key) }, `[${n}]`);
  a.addEventListener('mouseenter', () => showTip(a, ev));
  a.addEventListener('focus', () => showTip(a, ev));
  a.addEventListener('mouseleave', hideTip);
  a.addEventListener('blur', hideTip);
  return a;
}

// evidenceLine shows a cited sentence with its head and tail marked.
export function evidenceLine(ev, n) {
  const rel = (s) => (s && s.end > s.start ? { start: s.start - ev.start, end: s.end - ev.start } : null);
  const head = rel(ev.head);
  const tail = rel(ev.tail);
  return h('div', { class: 'evidence' },
    n != null ? citeLink(ev, n) : null, ' ',
    h('span', { class: 'sentence' }, marked(ev.sentence || '', [head && { ...head, cls: 'hl-head' }, tail && { ...tail, cls: 'hl-tail' }])),
    ' ', h('a', { class: 'src', href: href.doc(ev.doc_key, ev.start, ev.end) }, ev.cite || ev.doc_key));
}

// matchedAlias names the alias a query found an entity by, when the name
// itself is not what was typed.
function matchedAlias(e, q) {
  if (e.matched) return e.matched; // the server says which alias found it
  if (!q || e.name === q || e.name.startsWith(q)) return null;
  const as = e.aliases || [];
  return as.find((a) => a.name === q) || as.find((a) => a.name.startsWith(q)) || as.find((a) => a.name.includes(q)) || null;
}

// suggestBox adds entity suggestions under an input. onPick gets the
// entity chosen; onEnter gets the text when Enter is pressed with no
// suggestion selected; withText offers a search of the texts.
export function suggestBox(input, { onPick, onEnter, withText, signal }) {
  const list = h('ul', { class: 'suggest', role: 'listbox', hidden: true });
  const wrap = h('div', { class: 'suggest-wrap' }, input, list);
  input.setAttribute('autocomplete', 'off');
  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  let items = [];
  let active = -1;
  let ctl = null;
  let seq = 0;
  const close = () => {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    active = -1;
  };
  const mark = () => {
    items.forEach((it, i) => it.el.classList.toggle('active', i === active));
    if (items[active]) items[active].el.scrollIntoView({ block: 'nearest' });
  };
  const choose = (it) => {
    close();
    it.pick();
  };
  const lookup = debounce(async () => {
    const q = input.value.trim();
    if (ctl) ctl.abort();
    if (!q) {
      close();
      return;
    }
    ctl = new AbortController();
    const my = ++seq;
    let found = [];
    let failed = null;
    try {
      found = await getJSON('/api/entities' + qs({ q, limit: 10 }), { signal: ctl.signal });
    } catch (err) {
      if (err.name === 'AbortError') return;
      failed = err;
    }
    if (my !== seq || (signal && signal.aborted)) return;
    items = [];
    for (const e of found || []) {
      const al = matchedAlias(e, q);
      const el = h('li', { role: 'option', class: 'suggestion', 'data-testid': 'suggestion' },
        h('span', { class: 'sname' }, e.name), ' ', typeBadge(e.type),
        al ? h('span', { class: 'salias muted' }, ' ', t('suggest.alias', al.name, kindLabel(al.kind))) : null,
        e.mentions ? h('span', { class: 'scount muted' }, t('suggest.mentions', e.mentions)) : null);
      items.push({ el, pick: () => onPick(e) });
    }
    if (withText) {
      const el = h('li', { role: 'option', class: 'suggestion text', 'data-testid': 'suggestion-text' }, t('suggest.text', q));
      items.push({ el, pick: () => withText(q) });
    }
    if (failed) items.push({ el: h('li', { class: 'suggestion failed muted' }, failed.message), pick: () => {} });
    if (items.length === 0) items.push({ el: h('li', { class: 'suggestion none muted' }, t('suggest.none')), pick: () => {} });
    items.forEach((it) => {
      // mousedown, not click: the input's blur would close the list first.
      it.el.addEventListener('mousedown', (e) => {
        e.preventDefault();
        choose(it);
      });
    });
    fill(list, items.map((it) => it.el));
    active = -1;
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
  }, 150);
  input.addEventListener('input', lookup);
  input.addEventListener('focus', () => {
    if (input.value.trim() && items.length && list.hidden && document.activeElement === input) {
      list.hidden = false;
    }
  });
  input.addEventListener('blur', () => setTimeout(close, 100));
  input.addEventListener('keydown', (e) => {
    if (e.isComposing) return; // an input method is still composing
    if (e.key === 'ArrowDown' && items.length) {
      e.preventDefault();
      if (list.hidden) list.hidden = false;
      active = (active + 1) % items.length;
      mark();
    } else if (e.key === 'ArrowUp' && items.length) {
      e.preventDefault();
      active = (active - 1 + items.length) % items.length;
      mark();
    } else if (e.key === 'Escape') {
      close();
    } else if (e.key === 'Enter') {
      if (!list.hidden && items[active]) {
        e.preventDefault();
        choose(items[active]);
      } else if (onEnter && input.value.trim()) {
        e.preventDefault();
        seq++;
        if (ctl) ctl.abort();
        close();
        onEnter(input.value.trim());
      }
    }
  });
  return wrap;
}

export function kindLabel(kind) {
  const k = 'kind.' + kind;
  const s = t(k);
  return s === k ? label(kind) : s;
}

// relBadge shows a relation's name in the interface language, the
// schema's own name on hover.
export function relBadge(rel) {
  return h('span', { class: 'rel', title: rel }, label(rel));
}

export function go(hash) {
  if (location.hash === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
  else location.hash = hash;
}

export function section(title, ...body) {
  return h('section', { class: 'card' }, h('h2', null, title), body);
}
