import { h, fill, add } from '../dom.js';
import { t } from '../i18n.js';
import { request, readEvents, APIError, qs } from '../api.js';
import { loading, showError, citeLink, evidenceLine, entityLink, go } from '../ui.js';

// The form and the last answer outlive a re-render (the language
// switch), not a reload.
const state = { question: '', mode: 'reject', options: [], agent: false, answer: null };

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function stageLabel(s) {
  const k = 'ask.stage.' + s;
  return t(k) === k ? s : t(k);
}

// answerText puts citation links where the answer names them ([1]), or
// after the text when it names none.
function answerText(ans) {
  const cites = new Map((ans.citations || []).map((c) => [c.n, c]));
  const text = ans.answer || '';
  const out = [];
  const used = new Set();
  let at = 0;
  for (const m of text.matchAll(/\[(\d+)\]/g)) {
    const c = cites.get(Number(m[1]));
    if (!c) continue;
    out.push(text.slice(at, m.index), citeLink(c, c.n));
    used.add(c.n);
    at = m.index + m[0].length;
  }
  out.push(text.slice(at));
  const rest = [...cites.values()].filter((c) => !used.has(c.n));
  if (rest.length) out.push(' ', h('span', { class: 'cites' }, rest.map((c) => citeLink(c, c.n))));
  return out;
}

// methodLabel says in words how an answer was found; an unknown method
// (a newer server) still reads as words, never as a code.
function methodLabel(m) {
  const k = 'ask.method.' + m;
  return t(k) === k ? t('ask.method.other') : t(k);
}

// Confidence levels: how much the evidence carries the answer. A fact of
// the graph, phrased, is strong; the closest sentence alone is weak.
const STRONG = 0.7;
const WEAK = 0.45;

// confidenceMeter shows how far to trust an answer, as a bar and in
// words, so that a weak answer does not look like a strong one.
export function confidenceMeter(c) {
  const level = c >= STRONG ? 'high' : c >= WEAK ? 'mid' : 'low';
  return h('span', { class: 'confidence ' + level, 'data-testid': 'confidence', 'data-level': level, title: t('ask.confidence.help') },
    h('span', { class: 'meter', 'aria-hidden': 'true' }, h('span', { style: `width:${Math.round(Math.max(0.05, Math.min(1, c)) * 100)}%` })),
    ' ', t('ask.conf.' + level), h('span', { class: 'muted' }, ' (', t('ask.confidence', Math.round(c * 100)), ')'));
}

// askHref is the address of a question's answer, to share or bookmark.
export function askHref(q) {
  return '#/ask' + qs({ q: q.question, mode: q.mode !== 'reject' ? q.mode : '', agent: q.agent ? '1' : '' }) +
    (q.options || []).map((o) => '&opt=' + encodeURIComponent(o.letter + ':' + o.text)).join('');
}

function showAnswer(el, ans) {
  const cites = ans.citations || [];
  fill(el,
    ans.answered === false
      ? h('div', { class: 'unanswered' },
        h('h2', null, t('ask.unable')),
        h('p', { 'data-testid': 'answer', class: 'answer-text' }, ans.answer || t('ask.unable')))
      : h('div', { class: 'answered' },
        h('h2', null, t('ask.answer')),
        h('p', { 'data-testid': 'answer', class: 'answer-text' }, answerText(ans))),
    h('p', { class: 'meta muted' },
      ans.answered !== false && typeof ans.confidence === 'number' && !(ans.options && ans.options.length) ? confidenceMeter(ans.confidence) : null,
      ans.method && ans.method !== 'none' ? [' · ', t('ask.method', methodLabel(ans.method))] : null,
      ans.mode ? [' · ', t('ask.mode.' + ans.mode)] : null,
      ans.choice ? [' · ', t('ask.choice', ans.choice)] : null),
    ans.own_knowledge ? h('p', { class: 'msg warn' }, t('ask.own')) : null,
    ans.options && ans.options.length ? h('table', { class: 'options' },
      h('thead', null, h('tr', null, [t('ask.opt.letter'), t('ask.opt.text'), t('ask.opt.score'), t('ask.opt.evidence')].map((s) => h('th', null, s)))),
      h('tbody', null, ans.options.map((o) => h('tr', { class: (o.letter === ans.choice ? 'chosen' : '') + (o.kept === false ? ' dropped' : '') },
        h('td', null, o.letter), h('td', null, o.text),
        h('td', null, Number(o.score || 0).toFixed(2), o.kept === false ? h('span', { class: 'muted' }, ' ' + t('ask.opt.dropped')) : null),
        h('td', null, o.evidence ? evidenceLine(o.evidence, null) : h('span', { class: 'muted' }, '—')))))) : null,
    cites.length ? h('div', { class: 'sources' },
      h('h3', null, t('ask.sources')),
      h('ol', { class: 'cited' }, cites.map((c) => h('li', null, evidenceLine(c, c.n))))) : null,
    ans.trace && ans.trace.length ? h('details', { class: 'trace', open: true },
      h('summary', null, t('ask.trace', ans.trace.length)),
      h('ol', null, ans.trace.map((s) => h('li', null,
        h('div', null, h('strong', null, s.question)),
        h('div', null, s.answer),
        s.bridge ? h('div', { class: 'muted' }, t('ask.bridge'), ' ', entityLink(s.bridge)) : null,
        s.thought ? h('div', { class: 'muted small' }, s.thought) : null)))) : null,
    ans.items && ans.items.length ? h('details', { class: 'items' },
      h('summary', null, t('ask.items', ans.items.length)),
      h('ol', null, ans.items.map((it) => h('li', null,
        h('span', { class: 'muted small', title: t('ask.routes') }, it.kind, ' · ', (it.routes || []).join(' + '), ' · ', Number(it.score || 0).toFixed(2), ' '),
        it.citation && it.citation.doc_key ? evidenceLine(it.citation, null) : it.text)))) : null);
}

export function askPage(ctx) {
  // A question in the address is asked at once: a shared or bookmarked
  // answer opens as it was asked.
  const fromURL = ctx.query.get('q');
  if (fromURL != null) {
    state.question = fromURL;
    state.mode = ctx.query.get('mode') === 'open' ? 'open' : 'reject';
    state.agent = ctx.query.get('agent') === '1';
    state.options = ctx.query.getAll('opt').map((o) => {
      const i = o.indexOf(':');
      return i < 0 ? { letter: '', text: o } : { letter: o.slice(0, i), text: o.slice(i + 1) };
    });
  }
  const q = h('textarea', { rows: 3, 'data-testid': 'ask-input', placeholder: t('ask.placeholder'), 'aria-label': t('ask.question'), value: state.question });
  q.addEventListener('input', () => (state.question = q.value));
  const modes = ['reject', 'open'].map((m) =>
    h('label', { class: 'check', title: t('ask.mode.' + m + '.help') },
      h('input', { type: 'radio', name: 'mode', value: m, checked: state.mode === m, onchange: () => (state.mode = m) }), ' ', t('ask.mode.' + m)));
  const agent = h('input', { type: 'checkbox', checked: state.agent, onchange: () => (state.agent = agent.checked) });
  const optList = h('div', { class: 'opts' });
  const drawOptions = () => {
    fill(optList, state.options.map((o, i) => h('div', { class: 'opt row' },
      h('input', { class: 'letter', value: o.letter, maxlength: 3, 'aria-label': t('ask.opt.letter'), oninput: (e) => (o.letter = e.target.value) }),
      h('input', { class: 'grow', value: o.text, 'aria-label': t('ask.opt.text'), placeholder: t('ask.opt.text'), oninput: (e) => (o.text = e.target.value) }),
      h('button', { type: 'button', 'aria-label': t('ask.opt.remove'), onclick: () => { state.options.splice(i, 1); drawOptions(); } }, '×'))));
  };
  drawOptions();
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'ask-submit' }, t('ask.submit'));
  const out = h('div', { class: 'answer-box', 'aria-live': 'polite' });
  const form = h('form', {
    class: 'ask-form',
    onsubmit: (e) => {
      e.preventDefault();
      submitQuestion();
    },
  },
  q,
  h('div', { class: 'row wrap' },
    h('span', { class: 'group' }, modes),
    h('label', { class: 'check', title: t('ask.agent.help') }, agent, ' ', t('ask.agent')),
    h('button', { type: 'button', onclick: () => { state.options.push({ letter: LETTERS[state.options.length] || '?', text: '' }); drawOptions(); optList.lastChild.querySelector('.grow').focus(); } }, t('ask.opt.add')),
    h('span', { class: 'spacer' }),
    submit),
  optList);
  q.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      submitQuestion();
    }
  });

  let running = null;
  ctx.onCleanup(() => running && running.abort());

  // submitQuestion puts the question in the address; the page that the
  // address opens asks it.
  function submitQuestion() {
    const question = q.value.trim();
    if (!question) {
      q.focus();
      return;
    }
    const options = state.options.filter((o) => o.letter.trim() || o.text.trim()).map((o) => ({ letter: o.letter.trim(), text: o.text.trim() }));
    go(askHref({ question, mode: state.mode, agent: state.agent, options }));
  }

  async function ask() {
    const question = q.value.trim();
    if (!question) {
      q.focus();
      return;
    }
    if (running) running.abort();
    const ctl = new AbortController();
    running = ctl;
    const options = state.options.filter((o) => o.letter.trim() || o.text.trim()).map((o) => ({ letter: o.letter.trim(), text: o.text.trim() }));
    const body = { question, mode: state.mode, agent: state.agent, trace: state.agent };
    if (options.length) body.options = options;
    const stage = h('div', { class: 'muted stage' });
    const streamed = h('p', { class: 'answer-text streaming', 'data-testid': 'answer' });
    fill(out, loading(t('ask.thinking')), stage, streamed);
    submit.disabled = true;
    state.answer = null;
    try {
      const res = await request('/api/ask', { method: 'POST', body, signal: ctl.signal, accept: 'text/event-stream' });
      const type = res.headers.get('Content-Type') || '';
      let ans = null;
      if (type.includes('text/event-stream')) {
        let failure = null;
        await readEvents(res, (name, data) => {
          if (name === 'status') stage.textContent = t('ask.stage', stageLabel(data && data.stage ? data.stage : String(data)));
          else if (name === 'token') add(streamed, data && typeof data.text === 'string' ? data.text : '');
          else if (name === 'result') ans = data;
          else if (name === 'error') failure = new APIError(500, data && data.error ? data.error : String(data));
        });
        if (failure) throw failure;
        if (!ans) throw new APIError(0, t('ask.cut'));
      } else {
        ans = await res.json();
      }
      if (ctl.signal.aborted) return;
      state.answer = ans;
      showAnswer(out, ans);
    } catch (err) {
      if (err.name === 'AbortError') return;
      fill(out);
      showError(err);
    } finally {
      if (running === ctl) running = null;
      submit.disabled = false;
    }
  }

  if (fromURL != null && fromURL.trim()) {
    if (state.answer && state.answer.question === fromURL.trim()) showAnswer(out, state.answer);
    else setTimeout(() => ask(), 0);
  } else if (state.answer) {
    showAnswer(out, state.answer);
  } else {
    fill(out, h('p', { class: 'muted' }, t('ask.empty')));
  }
  setTimeout(() => q.focus(), 0);
  return h('div', { class: 'ask' },
    h('section', { class: 'card' }, h('h1', null, t('ask.title')), h('p', { class: 'muted' }, t('ask.lead')), form),
    h('section', { class: 'card' }, out));
}
