// Every piece of text reaches the page through text nodes or attributes,
// never through markup: a corpus may hold <script> or <img onerror>.

// h builds an element. Attributes are set with setAttribute; functions
// under on* names become listeners; children are nodes or text.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v == null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') {
        el.addEventListener(k.slice(2), v);
      } else if (k === 'value' || k === 'checked') {
        el[k] = v; // the live property, not the default
      } else {
        el.setAttribute(k, v === true ? '' : String(v));
      }
    }
  }
  add(el, children);
  return el;
}

// add appends children, flattening arrays and skipping null and false.
export function add(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// fill replaces an element's children.
export function fill(el, ...children) {
  el.replaceChildren();
  return add(el, children);
}

// debounce delays f until calls stop for ms.
export function debounce(f, ms) {
  let timer = 0;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => f(...args), ms);
  };
}

// cps splits a string into code points: the API counts offsets in them,
// while JavaScript strings index UTF-16 units.
export function cps(s) {
  return Array.from(s || '');
}

// marked renders a sentence with up to two spans (code point offsets
// relative to it) marked, for the head and tail of a fact.
export function marked(sentence, spans) {
  const chars = cps(sentence);
  const good = spans
    .filter((s) => s && s.end > s.start && s.start >= 0 && s.end <= chars.length)
    .sort((a, b) => a.start - b.start);
  const out = [];
  let at = 0;
  for (const s of good) {
    if (s.start < at) continue; // overlapping marks: keep the first
    if (s.start > at) out.push(chars.slice(at, s.start).join(''));
    out.push(h('mark', { class: s.cls || 'hl' }, chars.slice(s.start, s.end).join('')));
    at = s.end;
  }
  if (at < chars.length) out.push(chars.slice(at).join(''));
  return out;
}
