// Builds the interface into ../internal/webui/dist: index.html, app.js and
// app.css, minified, with no source maps and nothing that changes from one
// build to the next. `node build.mjs --check` only compares.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { readFile, writeFile, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(here, '../internal/webui/dist');
const check = process.argv.includes('--check');

const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: { app: 'src/main.js' },
  outdir: 'out', // names the outputs; nothing is written there
  write: false,
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020'],
  charset: 'utf8',
  legalComments: 'eof', // keeps cytoscape's licence notice
  sourcemap: false,
  logLevel: 'warning',
});

const files = new Map();
for (const f of result.outputFiles) files.set(path.basename(f.path), Buffer.from(f.contents));
if (!files.has('app.js') || !files.has('app.css')) {
  throw new Error('esbuild did not produce app.js and app.css: ' + [...files.keys()].join(', '));
}
// The query string changes with the content, so a browser holding an
// older app.js in its cache fetches the new one.
const short = (b) => createHash('sha256').update(b).digest('hex').slice(0, 12);
const html = (await readFile(path.join(here, 'src/index.html'), 'utf8'))
  .replace('%JS%', short(files.get('app.js')))
  .replace('%CSS%', short(files.get('app.css')))
  .replace(/\n\s*/g, '\n');
files.set('index.html', Buffer.from(html));
// The licences of what the bundle carries, beside it.
const bundled = [
  ['cytoscape', 'Cytoscape.js (https://js.cytoscape.org/)'],
  ['cytoscape-fcose', 'cytoscape-fcose (https://github.com/iVis-at-Bilkent/cytoscape.js-fcose)'],
  ['cose-base', 'cose-base (https://github.com/iVis-at-Bilkent/cose-base)'],
  ['layout-base', 'layout-base (https://github.com/iVis-at-Bilkent/layout-base)'],
];
let notices = 'app.js bundles these packages, each under the licence that follows its name.\n';
for (const [pkg, what] of bundled) {
  const licence = await readFile(path.join(here, 'node_modules', pkg, 'LICENSE'), 'utf8');
  notices += `\n== ${what} ==\n\n${licence.trim()}\n`;
}
files.set('THIRD-PARTY.txt', Buffer.from(notices));

if (check) {
  let stale = false;
  for (const [name, body] of files) {
    const old = await readFile(path.join(dist, name)).catch(() => null);
    if (!old || !old.equals(body)) {
      console.error(`dist/${name} is out of date: run npm run build`);
      stale = true;
    }
  }
  process.exit(stale ? 1 : 0);
}

await mkdir(dist, { recursive: true });
for (const name of await readdir(dist)) {
  if (!files.has(name)) await rm(path.join(dist, name), { recursive: true });
}
for (const [name, body] of [...files].sort()) {
  await writeFile(path.join(dist, name), body);
  console.log(`dist/${name}\t${body.length} bytes`);
}
