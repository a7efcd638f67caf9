import { h, fill } from '../dom.js';
import { t } from '../i18n.js';
import { getJSON, request, sendJSON, readEvents, docPath, seg } from '../api.js';
import { href, loading, showError, showNote } from '../ui.js';

const RUNNING = 'running';

function stateLabel(s) {
  const k = 'job.state.' + s;
  return t(k) === k ? s || '?' : t(k);
}

export function documentsPage(ctx) {
  const list = h('div', null, loading());
  const jobs = h('div', { class: 'jobs' });
  const live = h('div', { class: 'live-jobs' });
  const info = h('div', { class: 'muted small' });
  const following = new Set();
  const pathIn = h('input', { type: 'text', class: 'grow', placeholder: t('index.placeholder'), 'aria-label': t('index.path'), required: true });
  const start = h('button', { type: 'submit', class: 'primary' }, t('index.submit'));

  const cancel = async (job) => {
    try {
      await request(`/api/jobs/${seg(String(job.id))}`, { method: 'DELETE', signal: ctx.signal });
    } catch (err) {
      showError(err);
    }
  };

  // jobLine shows a job: its state, phase, a progress bar while it runs,
  // and what went wrong if it failed.
  const jobLine = (job) => {
    const running = job.state === RUNNING;
    const pct = job.total > 0 ? Math.min(100, Math.round((100 * job.done) / job.total)) : null;
    return h('div', { class: 'job state-' + String(job.state || '').replace(/[^a-z]/gi, '') },
      h('div', { class: 'row wrap' },
        h('strong', null, job.path || ''),
        h('span', { class: 'chip' }, stateLabel(job.state)),
        job.phase ? h('span', { class: 'muted' }, t('job.phase.' + job.phase) === 'job.phase.' + job.phase ? job.phase : t('job.phase.' + job.phase)) : null,
        h('span', { class: 'muted' }, t('job.counts', job.done || 0, job.total || 0, job.written || 0)),
        h('span', { class: 'spacer' }),
        running ? h('button', { type: 'button', class: 'small', onclick: () => cancel(job) }, t('job.cancel')) : null),
      running ? h('progress', { max: job.total > 0 ? job.total : null, value: job.total > 0 ? Math.min(job.done, job.total) : null, 'aria-label': t('job.progress') }, pct != null ? pct + '%' : '') : null,
      job.key ? h('div', { class: 'muted small' }, running ? t('job.at', job.key) : t('job.last', job.key)) : null,
      running && job.waiting ? h('div', { class: 'muted small', 'data-testid': 'job-waiting' }, job.waiting) : null,
      job.skipped && job.skipped.length ? h('details', { class: 'small' }, h('summary', null, t('job.skipped', job.skipped.length)), h('ul', null, job.skipped.map((s) => h('li', null, s)))) : null,
      job.failed > 0 ? h('div', { class: 'msg error inline', 'data-testid': 'job-failed' }, t('job.failed', job.failed)) : null,
      job.error ? h('div', { class: 'msg error inline' }, job.error) : null);
  };

  const loadDocs = () => getJSON('/api/documents', { signal: ctx.signal }).then((docs) => {
    fill(list, docs.length === 0 ? h('p', { class: 'muted' }, t('docs.none')) : h('table', { class: 'docs' },
      h('thead', null, h('tr', null, [t('docs.key'), t('docs.title.col'), t('docs.lang'), t('docs.chars'), ''].map((s) => h('th', null, s)))),
      h('tbody', null, docs.map((d) => h('tr', null,
        h('td', null, h('a', { href: href.doc(d.key) }, d.key)),
        h('td', null, d.title || ''),
        h('td', null, d.lang || ''),
        h('td', { class: 'num' }, d.chars != null ? Number(d.chars).toLocaleString() : ''),
        h('td', null, h('button', { type: 'button', class: 'danger small', onclick: () => remove(d) }, t('docs.delete'))))))));
  }).catch((err) => {
    fill(list);
    showError(err);
  });

  const remove = async (d) => {
    if (!window.confirm(t('docs.confirm', d.key))) return;
    try {
      await request('/api/document/' + docPath(d.key), { method: 'DELETE', signal: ctx.signal });
      showNote(t('docs.deleted', d.key));
      loadDocs();
    } catch (err) {
      showError(err);
    }
  };

  // follow reads a job's progress events until it is done.
  const follow = async (id, first) => {
    if (following.has(id)) return;
    following.add(id);
    const box = h('div', null, jobLine(first || { id, path: '', state: RUNNING }));
    live.prepend(box);
    try {
      const res = await request(`/api/jobs/${seg(String(id))}/events`, { signal: ctx.signal, accept: 'text/event-stream' });
      let last = null;
      await readEvents(res, (name, data) => {
        if (data && typeof data === 'object' && (name === 'progress' || name === 'done')) {
          last = data;
          fill(box, jobLine(data));
        } else if (name === 'error') {
          showError(new Error(data && data.error ? data.error : String(data)));
        }
      });
      if (last && last.state === 'done') showNote(t('job.finished', last.path || id));
      else if (last && last.error) showError(new Error(last.error));
      box.remove();
      loadDocs();
      loadJobs();
    } catch (err) {
      showError(err);
    } finally {
      following.delete(id);
    }
  };

  const loadJobs = () => getJSON('/api/jobs', { signal: ctx.signal }).then((js) => {
    const arr = Array.isArray(js) ? js : js && Array.isArray(js.jobs) ? js.jobs : [];
    const done = arr.filter((j) => j.state !== RUNNING);
    fill(jobs, done.length === 0 ? h('p', { class: 'muted' }, t('jobs.none')) : done.map((j) => jobLine(j)));
    for (const j of arr) if (j.state === RUNNING && j.id != null) follow(j.id, j);
  }).catch((err) => {
    if (err.name === 'AbortError') return;
    // A server without jobs: say so here, not as a page error.
    fill(jobs, h('p', { class: 'muted' }, t('jobs.unavailable', err.message)));
  });

  // What the server allows decides what the form offers.
  getJSON('/api/server', { signal: ctx.signal }).then((s) => {
    const roots = Array.isArray(s.index_roots) ? s.index_roots : [];
    fill(info,
      roots.length ? [t('index.roots'), ' ', roots.map((r, i) => [i ? ', ' : '', h('code', null, r)])] : t('index.off'),
      s.writes === 'token' ? [' ', t('index.token')] : s.writes === 'off' ? [' ', t('index.writesOff')] : null);
    if (!roots.length || s.writes === 'off') {
      pathIn.disabled = true;
      start.disabled = true;
    }
  }).catch((err) => {
    if (err.name !== 'AbortError') fill(info, t('index.unknown', err.message));
  });

  const form = h('form', {
    class: 'row wrap',
    onsubmit: async (e) => {
      e.preventDefault();
      const path = pathIn.value.trim();
      if (!path) return;
      start.disabled = true;
      try {
        const job = await sendJSON('/api/index', 'POST', { path }, { signal: ctx.signal });
        pathIn.value = '';
        if (job && job.id != null) follow(job.id, job);
      } catch (err) {
        showError(err);
      } finally {
        start.disabled = false;
      }
    },
  }, h('label', { class: 'grow row' }, t('index.path'), ' ', pathIn), start);

  loadDocs();
  loadJobs();
  return h('div', { class: 'documents' },
    h('section', { class: 'card' }, h('h2', null, t('index.title')), h('p', { class: 'muted' }, t('index.lead')), form, info, live,
      h('h3', null, t('jobs.title')), jobs),
    h('section', { class: 'card' }, h('h1', null, t('docs.title')), list));
}
