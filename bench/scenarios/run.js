#!/usr/bin/env node
/**
 * The scenarios of docs/benchmarks.md: each one as whole processes, from spawn to exit, `deckforge generate`
 * against pptx-automizer doing the same work in its own Node process. After `npm run build`
 * (`npm run bench:scenarios` does both):   node bench/scenarios/run.js [--rounds N]
 *
 * S1  10 text slides, title and body filled     S2  1 000 text slides, the same
 * S3  20 slides, each a 10 × 5 table filled      S4  20 slides, each a 12 × 3 chart filled
 *
 * Templates come from the shared corpus ($DECKFORGE_CORPUS, else ../shared/corpus): poi/layouts.pptx (slides
 * 1–3 in turn), ShapeCrawler/table-case004.pptx and Open-XML-SDK/Chart_2D.pptx, as bench/large, bench/tables
 * and bench/charts use them. Without the corpus, examples/sample-template.pptx and examples/report.pptx stand
 * in, and the output says so. `node -e 0` is the floor: what any Node process costs before it does anything.
 *
 * Per scenario: one untimed run of each engine, then N rounds (default 5), each running both, the order
 * alternating round by round; the medians of wall time and peak RSS (getrusage's maxRSS, all threads). Every
 * output, warm-up included, is opened and checked: the slide count, and every filled text, cell or value.
 * Prints a markdown table; writes the raw figures to bench/results/scenarios-<date>.json.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { median, option, processRun } from '../process.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLI = join(ROOT, 'bin', 'deckforge.js');
const ROUNDS = Number(option('rounds', 5));
const CORPUS = process.env.DECKFORGE_CORPUS
  ? resolve(process.env.DECKFORGE_CORPUS)
  : join(ROOT, '..', 'shared', 'corpus');
const CORPUS_PRESENT = existsSync(join(CORPUS, 'manifest.json'));
const example = (name) => join(ROOT, 'examples', name);

/** Where each kind of slide comes from: a template, its slide (0-based) and the shapes' names. */
const TEMPLATES = CORPUS_PRESENT
  ? {
      text: {
        path: join(CORPUS, 'poi', 'layouts.pptx'),
        slides: [
          { index: 0, title: 'Title 1', body: 'Subtitle 2' },
          { index: 1, title: 'Title 1', body: 'Content Placeholder 2' },
          { index: 2, title: 'Title 1', body: 'Text Placeholder 2' },
        ],
      },
      table: { path: join(CORPUS, 'ShapeCrawler', 'table-case004.pptx'), index: 0, shape: 'Table 1' },
      chart: { path: join(CORPUS, 'Open-XML-SDK', 'Chart_2D.pptx'), index: 0, shape: 'Chart 5' },
    }
  : {
      text: { path: example('sample-template.pptx'), slides: [{ index: 1, title: 'Title', body: 'Body' }] },
      table: { path: example('report.pptx'), index: 0, shape: 'Table 1' },
      chart: { path: example('report.pptx'), index: 1, shape: 'Chart 5' },
    };

/**
 * A scenario as a list of output slides, each a template slide and its fills, in a form both engines are
 * given: `text` (a string), `table` (rows of strings) or `chart` (categories and series).
 */
function textSlides(count) {
  const { slides } = TEMPLATES.text;
  return Array.from({ length: count }, (_, i) => {
    const s = slides[i % slides.length];
    return {
      index: s.index,
      fills: [
        { name: s.title, kind: 'text', value: `Slide ${i + 1} title` },
        { name: s.body, kind: 'text', value: `Body text of slide ${i + 1}` },
      ],
    };
  });
}
const tableSlides = (count) =>
  Array.from({ length: count }, (_, s) => ({
    index: TEMPLATES.table.index,
    fills: [
      {
        name: TEMPLATES.table.shape,
        kind: 'table',
        value: Array.from({ length: 10 }, (_, r) => Array.from({ length: 5 }, (_, c) => `S${s} R${r} C${c}`)),
      },
    ],
  }));
const chartSlides = (count) =>
  Array.from({ length: count }, (_, s) => ({
    index: TEMPLATES.chart.index,
    fills: [
      {
        name: TEMPLATES.chart.shape,
        kind: 'chart',
        value: {
          categories: Array.from({ length: 12 }, (_, i) => `Month ${i + 1}`),
          series: Array.from({ length: 3 }, (_, k) => ({
            name: `Series ${k + 1}`,
            values: Array.from({ length: 12 }, (_, i) => s * 0.5 + k * 10 + i),
          })),
        },
      },
    ],
  }));

const SCENARIOS = [
  { id: 'S1', label: '10 text slides', template: TEMPLATES.text.path, slides: textSlides(10) },
  { id: 'S2', label: '1 000 text slides', template: TEMPLATES.text.path, slides: textSlides(1000) },
  { id: 'S3', label: '20 slides × a 10 × 5 table', template: TEMPLATES.table.path, slides: tableSlides(20) },
  { id: 'S4', label: '20 slides × a 12 × 3 chart', template: TEMPLATES.chart.path, slides: chartSlides(20) },
];

/** The jsonData document of docs/payload.md for a scenario. */
function deckforgePayload(scenario) {
  return {
    presentation: {
      template: basename(scenario.template),
      slides: scenario.slides.map((s) => ({
        slide_index: s.index,
        shapes: s.fills.map((f) => ({ name: f.name, content: f.value })),
      })),
    },
  };
}

/**
 * pptx-automizer 0.9's way to do the same: addSlide per output slide, modifyElement with setText, setTable or
 * setChartData (as bench/large, bench/tables and bench/charts drive it), getJSZip, generateAsync, write.
 */
const AUTOMIZER_SCRIPT = `import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
const automizerModule = require('pptx-automizer');
const Automizer = automizerModule.default ?? automizerModule.Automizer;
const { modify } = automizerModule;
const [template, slidesFile, outFile] = process.argv.slice(2);
const templateFile = template.split('/').pop();
const slides = JSON.parse(readFileSync(slidesFile, 'utf8'));
const pres = new Automizer({
  templateDir: template.slice(0, -templateFile.length - 1),
  removeExistingSlides: true,
  autoImportSlideMasters: false,
  verbosity: 0,
})
  .loadRoot(templateFile)
  .load(templateFile, 'template');
const modifier = (fill) => {
  if (fill.kind === 'text') return modify.setText(fill.value);
  if (fill.kind === 'table') return modify.setTable({ body: fill.value.map((values) => ({ values })) });
  const { categories, series } = fill.value;
  return modify.setChartData({
    series: series.map((s) => ({ label: s.name })),
    categories: categories.map((label, i) => ({ label, values: series.map((s) => s.values[i]) })),
  });
};
for (const s of slides)
  pres.addSlide('template', s.index + 1, (slide) => {
    for (const fill of s.fills) slide.modifyElement(fill.name, [modifier(fill)]);
  });
const zip = await pres.getJSZip();
writeFileSync(outFile, await zip.generateAsync({ type: 'uint8array' }));
`;

const escapeXml = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** What the deck must hold: every filled text and table cell in its slides, every chart value in its charts. */
function expected(scenario) {
  const inSlides = [];
  const inCharts = [];
  for (const s of scenario.slides)
    for (const f of s.fills) {
      if (f.kind === 'text') inSlides.push(f.value);
      else if (f.kind === 'table') inSlides.push(...f.value.flat());
      else {
        inCharts.push(...f.value.categories, ...f.value.series.map((x) => x.name));
        inCharts.push(...f.value.series.flatMap((x) => x.values.map((v) => `<c:v>${v}</c:v>`)));
      }
    }
  return { inSlides: [...new Set(inSlides)], inCharts: [...new Set(inCharts)] };
}

/** Opens the deck and checks it: null when it is right, else what is wrong. */
function verify(file, scenario, want) {
  let parts;
  try {
    parts = unzipSync(new Uint8Array(readFileSync(file)));
  } catch (error) {
    return `does not open as a zip: ${error.message}`;
  }
  const presentation = parts['ppt/presentation.xml'];
  if (!presentation) return 'has no ppt/presentation.xml';
  // The slides are those presentation.xml lists (ECMA-376 Part 1, 19.2.1.33 sldId), found through its
  // relationships: pptx-automizer leaves the template's own slide parts in the package, unlisted.
  const targets = new Map(
    [
      ...strFromU8(parts['ppt/_rels/presentation.xml.rels'] ?? new Uint8Array()).matchAll(
        /<Relationship [^>]*>/g,
      ),
    ]
      .map((m) => [/Id="([^"]+)"/.exec(m[0])?.[1], /Target="([^"]+)"/.exec(m[0])?.[1]])
      .filter(([id, target]) => id && target),
  );
  const listed = [...strFromU8(presentation).matchAll(/<p:sldId [^>]*r:id="([^"]+)"/g)].map(
    (m) => `ppt/${targets.get(m[1])?.replace(/^\/?ppt\//, '')}`,
  );
  if (listed.length !== scenario.slides.length)
    return `lists ${listed.length} slides, not ${scenario.slides.length}`;
  const absent = listed.find((name) => !parts[name]);
  if (absent) return `lists a slide it does not hold: ${absent}`;
  const names = Object.keys(parts);
  const slideText = listed.map((n) => strFromU8(parts[n])).join('');
  const chartText = names
    .filter((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n))
    .map((n) => strFromU8(parts[n]))
    .join('');
  const missing = [
    ...want.inSlides.filter((t) => !slideText.includes(escapeXml(t))),
    ...want.inCharts.filter((t) => !chartText.includes(t.startsWith('<c:v>') ? t : escapeXml(t))),
  ];
  return missing.length ? `lacks ${missing.length} filled values, e.g. ${JSON.stringify(missing[0])}` : null;
}

const dir = mkdtempSync(join(tmpdir(), 'deckforge-scenarios-'));
const automizerScript = join(dir, 'automizer.mjs');
writeFileSync(automizerScript, AUTOMIZER_SCRIPT);

/** One run of one engine on one scenario, its output checked. */
function runOnce(engine, scenario, files) {
  rmSync(files.out, { force: true });
  const args =
    engine === 'deckforge'
      ? [CLI, 'generate', scenario.template, files.payload, '-o', files.out, '-q']
      : [automizerScript, scenario.template, files.slides, files.out];
  const run = processRun(args, { timeout: 10 * 60 * 1000 });
  if (run.status !== 0)
    throw new Error(
      `${scenario.id}: ${engine} exited with ${run.status ?? run.signal}: ${run.stderr.slice(-500)}`,
    );
  const wrong = verify(files.out, scenario, files.want);
  if (wrong) throw new Error(`${scenario.id}: ${engine}'s deck ${wrong}`);
  return { wallMs: run.wall, rssMb: run.rss };
}

function measure(scenario) {
  const files = {
    payload: join(dir, `${scenario.id}.json`),
    slides: join(dir, `${scenario.id}-automizer.json`),
    out: join(dir, `${scenario.id}.pptx`),
    want: expected(scenario),
  };
  writeFileSync(files.payload, JSON.stringify(deckforgePayload(scenario)));
  writeFileSync(files.slides, JSON.stringify(scenario.slides));
  const runs = { deckforge: [], 'pptx-automizer': [] };
  runOnce('deckforge', scenario, files);
  runOnce('pptx-automizer', scenario, files);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['deckforge', 'pptx-automizer'] : ['pptx-automizer', 'deckforge'];
    for (const engine of order) runs[engine].push(runOnce(engine, scenario, files));
  }
  return runs;
}

const summary = (runs) => ({
  wallMs: median(runs.map((r) => r.wallMs)),
  rssMb: median(runs.map((r) => r.rssMb)),
});

function gitCommit() {
  try {
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync(
      'git',
      ['-C', ROOT, 'status', '--porcelain', '--', 'src', 'bin', 'package.json'],
      {
        encoding: 'utf8',
      },
    ).trim();
    return dirty ? `${head} (src/, bin/ or package.json changed since)` : head;
  } catch {
    return 'unknown';
  }
}

const date = new Date().toISOString().slice(0, 10);
const cpuModel =
  /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpus()[0]?.model;
const loadBefore = loadavg();
if (!CORPUS_PRESENT)
  console.log(
    `No corpus at ${CORPUS} (set DECKFORGE_CORPUS): using examples/sample-template.pptx and examples/report.pptx instead.`,
  );

const floorRuns = [];
for (let i = 0; i <= ROUNDS; i++) {
  const run = processRun(['-e', '0']);
  if (i > 0) floorRuns.push({ wallMs: run.wall, rssMb: run.rss });
}
const results = SCENARIOS.map((scenario) => {
  const runs = measure(scenario);
  return {
    id: scenario.id,
    label: scenario.label,
    template: CORPUS_PRESENT
      ? scenario.template.slice(CORPUS.length + 1)
      : `examples/${basename(scenario.template)}`,
    slides: scenario.slides.length,
    deckforge: { ...summary(runs.deckforge), runs: runs.deckforge },
    peer: { name: 'pptx-automizer', ...summary(runs['pptx-automizer']), runs: runs['pptx-automizer'] },
  };
});
const loadAfter = loadavg();
rmSync(dir, { recursive: true, force: true });

const automizerVersion = JSON.parse(
  readFileSync(join(ROOT, 'node_modules', 'pptx-automizer', 'package.json'), 'utf8'),
).version;
const record = {
  date: new Date().toISOString(),
  machine: { cores: cpus().length, model: cpuModel },
  node: process.version,
  commit: gitCommit(),
  peers: { 'pptx-automizer': automizerVersion },
  corpus: CORPUS_PRESENT ? CORPUS : null,
  rounds: ROUNDS,
  loadAverage: { before: loadBefore, after: loadAfter },
  floor: { command: 'node -e 0', ...summary(floorRuns), runs: floorRuns },
  scenarios: results,
};
const resultsDir = join(ROOT, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const resultsFile = join(resultsDir, `scenarios-${date}.json`);
writeFileSync(resultsFile, `${JSON.stringify(record, null, 2)}\n`);

const msCell = (value) => `${value.toFixed(0)} ms`;
const load = (values) => values.map((v) => v.toFixed(2)).join(' ');
console.log(
  `${date}, ${record.machine.cores} × ${cpuModel}, Node ${process.version}, pptx-automizer ${automizerVersion}; median of ${ROUNDS} rounds of whole processes; load average ${load(loadBefore)} before, ${load(loadAfter)} after`,
);
console.log('');
console.log(
  '| scenario | template | deckforge | pptx-automizer | ratio (automizer ÷ deckforge) | memory (peak RSS, deckforge / automizer) |',
);
console.log('|---|---|---:|---:|---:|---:|');
console.log(
  `| floor: \`node -e 0\` | — | ${msCell(record.floor.wallMs)} | — | — | ${record.floor.rssMb.toFixed(0)} MB |`,
);
for (const r of results)
  console.log(
    `| ${r.id}: ${r.label} | ${r.template} | ${msCell(r.deckforge.wallMs)} | ${msCell(r.peer.wallMs)} | ${(r.peer.wallMs / r.deckforge.wallMs).toFixed(1)}× | ${r.deckforge.rssMb.toFixed(0)} / ${r.peer.rssMb.toFixed(0)} MB |`,
  );
console.log('');
console.log(`Raw figures: ${resultsFile.slice(ROOT.length + 1)}`);
