/**
 * Previews benchmark: a generated 10-slide deck to PDF, against the built package (dist/).
 *
 *   npm run build && node bench/previews/run.js [--rounds 9] [--requests 40] [--clients 4] [--memory 500] [--write]
 *
 * 1. cold: `soffice --headless --convert-to pdf` as one process per deck, its profile made by an untimed first
 *    run and kept (a fresh profile per run costs seconds more: this is the fairer peer); warm: the same deck on
 *    a started pool of one renderer. p50 of each and the ratio (target: warm ≤ 1/3 of cold).
 * 2. load: `--requests` renders from `--clients` clients (each its own account, one request at a time) on a
 *    pool of 2 renderers: throughput, p50 and p99 latency, failures.
 * 3. memory: resident memory of a one-renderer pool (LibreOffice and its bridge, from /proc) after 50 renders
 *    and after `--memory` renders, with the default recycling (a fresh LibreOffice every 200 conversions), and
 *    for comparison never recycled (`--skip-unrecycled` leaves that out).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { generate } = await import(pathToFileURL(join(root, 'dist/engine/index.js')).href);
const { LibreOfficeRendererPool } = await import(
  pathToFileURL(join(root, 'dist/adapters/libreoffice/libreoffice-renderer-pool.js')).href
);

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? Number(process.argv[at + 1]) : fallback;
};
const rounds = option('rounds', 9);
const requests = option('requests', 40);
const clients = option('clients', 4);
const memoryRuns = option('memory', 500);

const lines = [];
const print = (line) => {
  lines.push(line);
  console.log(line);
};
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const ms = (value) => `${value.toFixed(0)} ms`;

const work = mkdtempSync(join(tmpdir(), 'deckforge-bench-previews-'));
let folders = 0;
const folder = () => {
  const dir = join(work, `out-${++folders}`);
  mkdirSync(dir);
  return dir;
};

// The deck: the sample template's title and content slides, ten of them, every placeholder filled.
const chunks = [];
generate({
  payload: {
    presentation: {
      template: 'sample.pptx',
      slides: Array.from({ length: 10 }, (_, i) =>
        i % 2 === 0
          ? {
              slide_index: 0,
              shapes: [
                { name: 'Title', content: `Section ${i + 1}` },
                { name: 'Subtitle', content: 'Quarterly review · Q3' },
              ],
            }
          : {
              slide_index: 1,
              shapes: [
                { name: 'Title', content: `Highlights ${i + 1}` },
                {
                  name: 'Body',
                  content: 'Revenue up 12 %\n  East and West\nCosts flat\n  Hiring paused\nOutlook raised',
                },
              ],
            },
      ),
    },
  },
  files: new Map([
    ['sample.pptx', new Uint8Array(readFileSync(join(root, 'examples/sample-template.pptx')))],
  ]),
  output: { write: (chunk) => void chunks.push(Buffer.from(chunk)) },
});
const deck = join(work, 'deck.pptx');
writeFileSync(deck, Buffer.concat(chunks));

const poolOptions = (size) => ({
  size,
  timeoutMs: 120_000,
  recycleAfter: 200,
  memoryCeilingMb: 4096,
  workDir: join(work, `pool-${++folders}`),
  searchPath: process.env.PATH ?? '',
  python: null,
});

print(
  `# Previews benchmark, ${new Date().toISOString()}, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
print('');

// 1. Cold soffice against the warm pool, alternating so background load hits both alike.
const profile = pathToFileURL(join(work, 'cold-profile')).href;
const cold = () => {
  const out = folder();
  const started = performance.now();
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=${profile}`,
      '--headless',
      '--norestore',
      '--convert-to',
      'pdf',
      '--outdir',
      out,
      deck,
    ],
    { stdio: 'ignore' },
  );
  const elapsed = performance.now() - started;
  readFileSync(join(out, 'deck.pdf')); // It exits 0 even when it wrote nothing.
  return elapsed;
};
const single = new LibreOfficeRendererPool(poolOptions(1));
const warm = async () => {
  const started = performance.now();
  await single.render({ accountId: 'bench', deckFile: deck, outputDir: folder(), pdf: true });
  return performance.now() - started;
};
cold(); // The profile's first start.
await warm(); // LibreOffice started.
await warm();
const coldTimes = [];
const warmTimes = [];
for (let i = 0; i < rounds; i++) {
  coldTimes.push(cold());
  warmTimes.push(await warm());
}
await single.close();
const coldP50 = percentile(coldTimes, 50);
const warmP50 = percentile(warmTimes, 50);
print('| 10-slide deck to PDF | p50 | ratio | target |');
print('|---|---:|---:|---|');
print(`| cold \`soffice --convert-to pdf\` (${rounds} runs) | ${ms(coldP50)} | — | — |`);
print(
  `| warm pool, 1 renderer (${rounds} runs) | ${ms(warmP50)} | ${(warmP50 / coldP50).toFixed(2)} of cold | ≤ 0.33 ${warmP50 <= coldP50 / 3 ? '✓' : '✗'} |`,
);
print('');

// 2. Four clients on two renderers.
const pair = new LibreOfficeRendererPool(poolOptions(2));
await Promise.all(
  [0, 1].map(() => pair.render({ accountId: 'warm-up', deckFile: deck, outputDir: folder(), pdf: true })),
);
const latencies = [];
let failures = 0;
const loadStarted = performance.now();
await Promise.all(
  Array.from({ length: clients }, async (_, client) => {
    for (let i = client; i < requests; i += clients) {
      const started = performance.now();
      try {
        await pair.render({ accountId: `client-${client}`, deckFile: deck, outputDir: folder(), pdf: true });
        latencies.push(performance.now() - started);
      } catch (error) {
        failures += 1;
        print(`failure: ${error.message}`);
      }
    }
  }),
);
const loadSeconds = (performance.now() - loadStarted) / 1000;
await pair.close();
print(`| ${requests} renders, ${clients} clients, 2 renderers | throughput | p50 | p99 | failures |`);
print('|---|---:|---:|---:|---:|');
print(
  `| 10-slide deck to PDF | ${(requests / loadSeconds).toFixed(2)} /s | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${failures} |`,
);
print('');

// 3. Memory after 50 and after `memoryRuns` renders (default recycling).
const resident = (pids) =>
  pids.reduce((kb, pid) => {
    try {
      return kb + Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      return kb;
    }
  }, 0) / 1024;
/** Resident memory after 50 and after `memoryRuns` renders on one renderer recycled every `recycleAfter`. */
async function memoryAfter(recycleAfter) {
  const pool = new LibreOfficeRendererPool({ ...poolOptions(1), recycleAfter });
  const memory = {};
  for (let i = 1; i <= memoryRuns; i++) {
    const out = folder();
    await pool.render({ accountId: 'memory', deckFile: deck, outputDir: out, pdf: true });
    rmSync(out, { recursive: true, force: true });
    if (i === 50 || i === memoryRuns) memory[i] = resident(pool.pids());
  }
  await pool.close();
  return { at50: memory[50], atEnd: memory[memoryRuns], growth: memory[memoryRuns] / memory[50] - 1 };
}
print(`| pool memory, 1 renderer | after 50 | after ${memoryRuns} | change | target |`);
print('|---|---:|---:|---:|---|');
const recycled = await memoryAfter(200);
print(
  `| recycled every 200 (default): LibreOffice + bridge, resident | ${recycled.at50.toFixed(0)} MB | ${recycled.atEnd.toFixed(0)} MB | ${(recycled.growth * 100).toFixed(1)} % | within 20 % ${Math.abs(recycled.growth) <= 0.2 ? '✓' : '✗'} |`,
);
if (!process.argv.includes('--skip-unrecycled')) {
  const kept = await memoryAfter(1_000_000);
  print(
    `| never recycled, for comparison | ${kept.at50.toFixed(0)} MB | ${kept.atEnd.toFixed(0)} MB | ${(kept.growth * 100).toFixed(1)} % | — |`,
  );
}

rmSync(work, { recursive: true, force: true });
if (process.argv.includes('--write'))
  writeFileSync(join(root, 'bench', 'out-previews.md'), `${lines.join('\n')}\n`);
