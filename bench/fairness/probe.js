#!/usr/bin/env node
/**
 * The fairness and memory probes against a real `deckforge serve` (child process, fresh data dir,
 * DECKFORGE_WORKERS=2, private URLs allowed for the local picture servers). After `npm run build`:
 *   node bench/fairness/probe.js [--root <a built checkout>] [--only jobs|sync|memory]
 *
 * jobs:   account A submits two jobs of 12 picture URLs each on a server that accepts and never answers; then
 *         account B submits a 1-slide job: B's time from submission to SUCCEEDED.
 * sync:   account A sends two synchronous chart-heavy requests at once (Chart_2D.pptx, one chart of --categories
 *         categories each, about 10 s of work); then B sends a 1-slide request: B's time to 200, and A's statuses.
 * memory: one synchronous request naming 48 distinct 24 MB picture URLs: the server's peak RSS (VmHWM) and RSS
 *         afterwards, against its RSS before.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusBytes, option, ROOT } from '../support.js';

const root = option('root', ROOT);
const only = option('only', null);
const categories = Number(option('categories', 12000));
const cli = join(root, 'bin', 'deckforge.js');
const dataDir = mkdtempSync(join(tmpdir(), 'deckforge-fairness-'));
const env = {
  ...process.env,
  DECKFORGE_DATA_DIR: dataDir,
  DECKFORGE_WORKERS: '2',
  DECKFORGE_ALLOW_PRIVATE_URLS: 'true',
  DECKFORGE_LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  PORT: String(20000 + Math.floor(Math.random() * 20000)),
};

function account(email) {
  const out = execFileSync(process.execPath, [cli, 'accounts', 'create', '--email', email, '--json'], {
    env,
  });
  return JSON.parse(out.toString());
}

async function listen(handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

const rss = (pid, field) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

const a = account('a@example.test');
const b = account('b@example.test');
const serve = spawn(process.execPath, [cli, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const base = `http://127.0.0.1:${env.PORT}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 300) throw new Error('serve did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
async function token(who) {
  const body = new URLSearchParams({ username: who.email, password: who.password, key: who.key });
  const response = await fetch(`${base}/v1.0/token/create`, { method: 'POST', body });
  return (await response.json()).Result.Access_Token;
}
const [ta, tb] = [await token(a), await token(b)];
const auth = (t) => ({ authorization: `Bearer ${t}` });

function form(payload, name, bytes) {
  const f = new FormData();
  f.append('files', new Blob([bytes]), name);
  f.append('jsonData', JSON.stringify(payload));
  return f;
}
const LAYOUTS = corpusBytes('poi', 'layouts.pptx');
const oneSlide = () =>
  form(
    {
      presentation: {
        template: 'layouts.pptx',
        slides: [{ slide_index: 0, shapes: [{ name: 'Title 1', content: 'B' }] }],
      },
    },
    'layouts.pptx',
    LAYOUTS,
  );
const IMAGES = corpusBytes('pptx-automizer', 'SlideWithImages.pptx');
function pictures(urls) {
  const names = ['imagePNG', 'imageJPG', 'imageSVG'];
  const slides = [];
  for (let i = 0; i < urls.length; i += 3)
    slides.push({
      slide_index: 1,
      shapes: urls.slice(i, i + 3).map((url, k) => ({ name: names[k], content: url })),
    });
  return form({ presentation: { template: 'images.pptx', slides } }, 'images.pptx', IMAGES);
}

async function jobs() {
  const silent = await listen(() => undefined);
  const submit = async (t, body) =>
    (
      await (
        await fetch(`${base}/v2.0/generator/create-async`, { method: 'POST', body, headers: auth(t) })
      ).json()
    ).job_id;
  const urls = (tag) => Array.from({ length: 12 }, (_, i) => `${silent.base}/${tag}/${i}.png`);
  await submit(ta, pictures(urls('a1')));
  await submit(ta, pictures(urls('a2')));
  const started = performance.now();
  const id = await submit(tb, oneSlide());
  for (;;) {
    const s = await (await fetch(`${base}/v2.0/jobs/${id}/status`, { headers: auth(tb) })).json();
    if (s.status === 'SUCCEEDED' || s.status === 'FAILED') {
      console.log(
        `jobs: B's 1-slide job ${s.status} ${((performance.now() - started) / 1000).toFixed(1)} s after submission`,
      );
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  silent.server.closeAllConnections();
  silent.server.close();
}

async function sync() {
  const CHART = corpusBytes('Open-XML-SDK', 'Chart_2D.pptx');
  const data = {
    categories: Array.from({ length: categories }, (_, i) => `C${i}`),
    series: [{ name: 'S', values: Array.from({ length: categories }, (_, i) => i) }],
  };
  const heavy = () =>
    form(
      {
        presentation: {
          template: 'Chart_2D.pptx',
          slides: [{ slide_index: 0, shapes: [{ name: 'Chart 5', content: data }] }],
        },
      },
      'Chart_2D.pptx',
      CHART,
    );
  const t0 = performance.now();
  const post = (t, body) =>
    fetch(`${base}/v1.0/generator/create`, { method: 'POST', body, headers: auth(t) }).then(async (r) => {
      await r.arrayBuffer();
      return { status: r.status, s: (performance.now() - t0) / 1000 };
    });
  const slow = [post(ta, heavy()), post(ta, heavy())];
  await new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const other = await post(tb, oneSlide());
  console.log(
    `sync: B's 1-slide request ${other.status} after ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const done = await Promise.all(slow);
  console.log(
    `sync: A's two heavy requests: ${done.map((d) => `${d.status} at ${d.s.toFixed(1)} s`).join(', ')}`,
  );
}

async function memory() {
  const body = Buffer.alloc(24 * 1024 * 1024, 1);
  body.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const host = await listen((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(body));
  const before = rss(serve.pid, 'VmRSS');
  const urls = Array.from({ length: 48 }, (_, i) => `${host.base}/${i}.png`);
  const started = performance.now();
  const r = await fetch(`${base}/v1.0/generator/create`, {
    method: 'POST',
    body: pictures(urls),
    headers: auth(ta),
  });
  const text = (await r.text()).slice(0, 160);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  console.log(
    `memory: ${r.status} in ${((performance.now() - started) / 1000).toFixed(1)} s; server RSS ${before.toFixed(0)} MB before, ` +
      `peak ${rss(serve.pid, 'VmHWM').toFixed(0)} MB, ${rss(serve.pid, 'VmRSS').toFixed(0)} MB 2 s after (${text})`,
  );
  host.server.close();
}

try {
  if (!only || only === 'jobs') await jobs();
  if (!only || only === 'sync') await sync();
  if (!only || only === 'memory') await memory();
} finally {
  serve.kill('SIGKILL');
}
