#!/usr/bin/env node
/**
 * Large-deck benchmark: time and peak memory of whole processes, against the built package
 * (`npm run build` first).   node bench/large/run.js [--rounds N] [--skip-automizer] [--write]
 *
 * L1  N text slides cycling slides 0–2 of poi/layouts.pptx, title and body filled: `deckforge generate` at
 *     5 000, 10 000 and 20 000 slides (is the time linear?), pptx-automizer on the same work at 5 000 and
 *     20 000 slides.
 * L2  every slide of poi/…HowWeRefactor.pptx (28, 7 MB of slide XML) 20 times over, nothing filled: 560 slides.
 *     `deckforge generate` and pptx-automizer.
 * L3  slide 23 of the same template (1.65 MB of XML) 1 500 times: `deckforge generate`, and as an asynchronous
 *     job on `deckforge serve` (submit → SUCCEEDED, then the download).
 *
 * Each figure is a whole process: wall time from spawn to exit, peak RSS of the process (all its threads: the
 * child reports getrusage's maxRSS at exit); for the job, the server's peak RSS (VmHWM) over start, the job and
 * the download. Medians of N runs (default 3) after one untimed run; pptx-automizer once per size (it takes
 * minutes), in a child process, with its default heap: 0.9.x's addSlide/modifyElement/getJSZip/generateAsync,
 * as bench/engine/run.js uses it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync, zipSync } from 'fflate';
import { CORPUS, generateRuns, median, option, processRun, report, ROOT } from '../support.js';

const CLI = join(ROOT, 'bin', 'deckforge.js');
const LAYOUTS = join(CORPUS, 'poi', 'layouts.pptx');
const HEAVY = join(CORPUS, 'poi', 'ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx');
const ROUNDS = Number(option('rounds', 3));
const WITH_AUTOMIZER = !process.argv.includes('--skip-automizer');
const AUTOMIZER_TIMEOUT_MS = 10 * 60 * 1000;

const dir = mkdtempSync(join(tmpdir(), 'deckforge-large-bench-'));
const BODY = ['Subtitle 2', 'Content Placeholder 2', 'Text Placeholder 2'];
const l1Plan = (count) =>
  Array.from({ length: count }, (_, i) => ({
    index: i % 3,
    title: `Slide ${i + 1} title`,
    body: `Body text of slide ${i + 1}`,
  }));
const payloads = {
  l1: (count) => ({
    presentation: {
      template: 'layouts.pptx',
      slides: l1Plan(count).map((s) => ({
        slide_index: s.index,
        shapes: [
          { name: 'Title 1', content: s.title },
          { name: BODY[s.index], content: s.body },
        ],
      })),
    },
  }),
  l2: () => ({
    presentation: {
      template: 'heavy.pptx',
      slides: Array.from({ length: 560 }, (_, i) => ({ slide_index: i % 28 })),
    },
  }),
  l3: () => ({
    presentation: {
      template: 'heavy.pptx',
      slides: Array.from({ length: 1500 }, () => ({ slide_index: 23 })),
    },
  }),
};

/** `deckforge generate` on a payload: median wall and peak RSS of ROUNDS runs after an untimed one. */
function deckforge(template, templateName, payload) {
  const payloadPath = join(dir, 'payload.json');
  writeFileSync(payloadPath, JSON.stringify(payload));
  const templateCopy = join(dir, templateName);
  writeFileSync(templateCopy, readFileSync(template));
  const out = join(dir, 'out.pptx');
  const runs = generateRuns([templateCopy, payloadPath, '-o', out, '-q'], ROUNDS);
  const size = readFileSync(out).length;
  rmSync(out);
  return { wall: median(runs.map((r) => r.wall)), rss: median(runs.map((r) => r.rss)), size };
}

/** pptx-automizer doing the same work in a child process, once. */
function automizer(template, plan) {
  const script = join(dir, 'automizer.mjs');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
const automizerModule = require('pptx-automizer');
const Automizer = automizerModule.default ?? automizerModule.Automizer;
const { modify } = automizerModule;
const [templateDir, templateFile, planFile, outFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const pres = new Automizer({ templateDir, removeExistingSlides: true, autoImportSlideMasters: false, verbosity: 0 })
  .loadRoot(templateFile)
  .load(templateFile, 'template');
for (const s of plan) {
  pres.addSlide('template', s.index + 1, (slide) => {
    for (const [name, text] of s.texts) slide.modifyElement(name, [modify.setText(text)]);
  });
}
const zip = await pres.getJSZip();
const bytes = await zip.generateAsync({ type: 'uint8array' });
(await import('node:fs')).writeFileSync(outFile, bytes);
`,
  );
  const planFile = join(dir, 'automizer-plan.json');
  writeFileSync(planFile, JSON.stringify(plan));
  const out = join(dir, 'automizer.pptx');
  const run = processRun([script, dirname(template), template.split('/').pop(), planFile, out], {
    timeout: AUTOMIZER_TIMEOUT_MS,
  });
  if (run.status !== 0) {
    const why = run.signal
      ? `killed after ${(run.wall / 1000).toFixed(0)} s (${run.signal})`
      : run.stderr.slice(-300);
    return { failed: why };
  }
  rmSync(out, { force: true });
  return run;
}

/** `deckforge serve` in a child process; L3 as a job through HTTP; the server's peak RSS. */
async function asJob(payload) {
  const dataDir = join(dir, 'serve-data');
  const plans = join(dir, 'plans.json');
  writeFileSync(
    plans,
    JSON.stringify({ plans: [{ name: 'Bench', allowedSlideCount: 1e9, requestsPerMinute: 1e6 }] }),
  );
  const server = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      DECKFORGE_DATA_DIR: dataDir,
      DECKFORGE_PLANS: plans,
      DECKFORGE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    const base = await new Promise((resolveUrl, reject) => {
      server.stdout.on('data', (data) => {
        out += data;
        const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (url) resolveUrl(url);
      });
      server.on('exit', (code) => reject(new Error(`deckforge serve exited with ${code}: ${out}`)));
    });
    const field = (name) => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
    const tokenResponse = await fetch(`${base}/v1.0/token/create`, {
      method: 'POST',
      body: new URLSearchParams({
        username: field('e-mail'),
        password: field('password'),
        key: field('security key'),
      }),
    });
    const token = (await tokenResponse.json()).Result.Access_Token;
    const auth = { authorization: `Bearer ${token}` };
    const form = new FormData();
    form.append('files', new Blob([readFileSync(HEAVY)]), 'heavy.pptx');
    form.append('jsonData', JSON.stringify(payload));
    const idleRss = memory(server.pid, 'VmRSS');
    const started = performance.now();
    const submitted = await (
      await fetch(`${base}/v2.0/generator/create-async`, { method: 'POST', headers: auth, body: form })
    ).json();
    let status;
    for (;;) {
      status = await (await fetch(`${base}/v2.0/jobs/${submitted.job_id}/status`, { headers: auth })).json();
      if (status.status === 'SUCCEEDED' || status.status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const jobMs = performance.now() - started;
    if (status.status !== 'SUCCEEDED') throw new Error(`job failed: ${status.error_message}`);
    const downloadStarted = performance.now();
    const download = await fetch(status.file_url);
    let bytes = 0;
    for await (const chunk of download.body) bytes += chunk.length;
    const downloadMs = performance.now() - downloadStarted;
    return { jobMs, downloadMs, bytes, idleRss, peakRss: memory(server.pid, 'VmHWM') };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

/** The template with a p14:creationId in slide 23's p:cSld/p:extLst, where PowerPoint writes it. */
function withCreationId(template) {
  const files = unzipSync(new Uint8Array(template));
  const slide = new TextDecoder().decode(files['ppt/slides/slide24.xml']);
  const ext =
    '<p:extLst><p:ext uri="{BB962C8B-B14F-4D97-AF65-F5344CB8AC3E}"><p14:creationId ' +
    'xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main" val="1234567890"/></p:ext></p:extLst>';
  files['ppt/slides/slide24.xml'] = new TextEncoder().encode(slide.replace('</p:cSld>', `${ext}</p:cSld>`));
  return zipSync(files);
}

function memory(pid, field) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN) / 1024;
}

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const mb = (value) => `${value.toFixed(0)} MB`;
const { print, save } = report('large');
const nodeAlone = processRun(['-e', '0']);

print(
  `Large-deck benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, median of ${ROUNDS} process runs; \`node -e 0\`: ${s(nodeAlone.wall)}, ${mb(nodeAlone.rss)}`,
);
print('');
print(
  '| scenario | output | deckforge generate | peak RSS | pptx-automizer | peak RSS | automizer ÷ deckforge (time) |',
);
print('|---|---:|---:|---:|---:|---:|---:|');
const scenario = (label, deck, peer) => {
  const peerCells = !peer
    ? ['—', '—', '—']
    : peer.failed
      ? [`did not finish: ${peer.failed}`, '—', '—']
      : [s(peer.wall), mb(peer.rss), `${(peer.wall / deck.wall).toFixed(1)}×`];
  print(
    `| ${label} | ${(deck.size / 2 ** 20).toFixed(1)} MB | ${s(deck.wall)} | ${mb(deck.rss)} | ${peerCells.join(' | ')} |`,
  );
};

const l1 = {};
for (const count of [5000, 10000, 20000]) {
  l1[count] = deckforge(LAYOUTS, 'layouts.pptx', payloads.l1(count));
  const peer =
    WITH_AUTOMIZER && (count === 5000 || count === 20000)
      ? automizer(
          LAYOUTS,
          l1Plan(count).map((p) => ({
            index: p.index,
            texts: [
              ['Title 1', p.title],
              [BODY[p.index], p.body],
            ],
          })),
        )
      : null;
  scenario(`L1 ${count} text slides`, l1[count], peer);
}
const l2 = deckforge(HEAVY, 'heavy.pptx', payloads.l2());
scenario(
  'L2 HowWeRefactor × 20 (560 slides)',
  l2,
  WITH_AUTOMIZER
    ? automizer(
        HEAVY,
        Array.from({ length: 560 }, (_, i) => ({ index: i % 28, texts: [] })),
      )
    : null,
);
const l3 = deckforge(HEAVY, 'heavy.pptx', payloads.l3());
scenario('L3 slide 23 × 1 500', l3, null);
// The same with a p14:creationId on the slide (the corpus's version has none): each copy then gets a fresh
// id, its text split around it and the head deflated once; without one, a copy is the part's own bytes, which
// is also what keeping the template's id would cost.
const withId = join(dir, 'heavy-with-id.pptx');
writeFileSync(withId, withCreationId(readFileSync(HEAVY)));
const l3id = deckforge(withId, 'heavy.pptx', payloads.l3());
scenario('L3 with a creation id (fresh per copy)', l3id, null);
print('');
const perSlide = (count) => `${((l1[count].wall / count) * 1000).toFixed(0)} µs`;
print(
  `L1 time per slide (process time ÷ slides, Node's start included): ${perSlide(5000)} at 5 000, ${perSlide(10000)} at 10 000, ${perSlide(20000)} at 20 000.`,
);
const job = await asJob(payloads.l3());
print(
  `L3 as an asynchronous job on \`deckforge serve\`: submitted to SUCCEEDED ${s(job.jobMs)}, download of ${(job.bytes / 2 ** 20).toFixed(0)} MB ${s(job.downloadMs)}; server peak RSS ${mb(job.peakRss)} (${mb(job.idleRss)} before the job).`,
);
rmSync(dir, { recursive: true, force: true });
save();
