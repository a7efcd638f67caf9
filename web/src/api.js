import { t } from './i18n.js';

const TOKEN_KEY = 'annals.token';

export function getToken() {
  try {
    return sessionStorage.getItem(TOKEN_KEY) || '';
  } catch {
    return '';
  }
}

export function setToken(tok) {
  try {
    if (tok) sessionStorage.setItem(TOKEN_KEY, tok);
    else sessionStorage.removeItem(TOKEN_KEY);
  } catch {
    // storage refused (private mode): the token lasts this page only
  }
}

// APIError is an answer with an error status, or no answer at all
// (status 0).
export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

// request sends a request and returns the response when its status is a
// success; otherwise it throws the API's {"error": …} as an APIError.
export async function request(path, { method = 'GET', body, signal, accept } = {}) {
  const headers = { Accept: accept || 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const tok = getToken();
  // The token goes with every request that may write, never with reads.
  if (tok && method !== 'GET') headers.Authorization = 'Bearer ' + tok;
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    });
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new APIError(0, t('err.network'));
  }
  if (!res.ok) {
    let msg = '';
    try {
      const j = await res.json();
      msg = j && typeof j.error === 'string' ? j.error : '';
    } catch {
      // not JSON: fall back to the status line
    }
    throw new APIError(res.status, msg || `HTTP ${res.status} ${res.statusText}`.trim());
  }
  return res;
}

export async function getJSON(path, opts) {
  const res = await request(path, opts);
  return res.json();
}

export function sendJSON(path, method, body, opts = {}) {
  return request(path, { ...opts, method, body }).then((r) => r.json());
}

// qs builds a query string from the fields that are set.
export function qs(params) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  }
  const s = p.toString();
  return s ? '?' + s : '';
}

// seg encodes one path segment; docPath keeps a document key's slashes
// as separators, since the API's route takes the rest of the path.
export const seg = (s) => encodeURIComponent(s);
export const docPath = (key) => key.split('/').map(seg).join('/');

// readEvents reads a text/event-stream body, calling onEvent(name, data)
// for each event, data parsed as JSON when it is. EventSource cannot
// send a body or headers, so this reads the fetch stream itself.
export async function readEvents(res, onEvent) {
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  let buf = '';
  const dispatch = (block) => {
    let name = 'message';
    const data = [];
    for (const line of block.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue;
      const i = line.indexOf(':');
      const field = i < 0 ? line : line.slice(0, i);
      let val = i < 0 ? '' : line.slice(i + 1);
      if (val.startsWith(' ')) val = val.slice(1);
      if (field === 'event') name = val;
      else if (field === 'data') data.push(val);
    }
    if (data.length === 0) return;
    const raw = data.join('\n');
    let v = raw;
    try {
      v = JSON.parse(raw);
    } catch {
      // plain text data
    }
    onEvent(name, v);
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    let m;
    while ((m = /\r?\n\r?\n/.exec(buf))) {
      dispatch(buf.slice(0, m.index));
      buf = buf.slice(m.index + m[0].length);
    }
  }
  buf += dec.decode();
  if (buf.trim()) dispatch(buf);
}
