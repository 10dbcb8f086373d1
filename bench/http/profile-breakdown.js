/**
 * Splits the CPU profiles of a `deckforge serve` process (`node --cpu-prof --cpu-prof-dir DIR`: one file for the
 * main thread, one per generation thread) into where a request's server CPU goes, as bench/README.md's "The 9 KB
 * request" reads it. Each sample goes to the first frame, from the leaf up, that belongs to a known part (a
 * Buffer.concat called by the multipart parser is multipart); samples with none are the runtime's own (GC,
 * (program): V8 and libuv, structured cloning included). Prints ms per request when given the request count.
 *
 *   node bench/http/profile-breakdown.js DIR [--requests N] [--window FROM-TO]
 *
 * `--window` keeps the samples between two CLOCK_MONOTONIC times in µs (the measured rounds, as
 * stored-templates.js --cpu-prof prints them), leaving out start-up and warm-up.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, ...rest] = process.argv.slice(2);
const args = Object.fromEntries(
  rest.flatMap((arg, i) => (arg.startsWith('--') ? [[arg.slice(2), rest[i + 1]]] : [])),
);
const requests = Number(args.requests ?? 0);
const [from, to] = (args.window ?? '0-Infinity').split('-').map(Number);

/** Leaf-first: the first rule matching a frame's URL (or its function's name) names its part. */
const RULES = [
  [
    'zip writing',
    /engine\/package\/(zip-writer|zip-stream|deflate|zip-records|zip-format|package-builder)|file-sink|node:zlib|zlib/,
  ],
  ['engine', /dist\/engine\//],
  ['image preparation', /image-preparation/],
  ['multipart', /@fastify\/multipart|@fastify\/busboy|busboy|request-form\.js/],
  ['logging', /pino|sonic-boom|request-logging\.js|thread-stream/],
  [
    'hand-off to the thread',
    /worker-thread-pool|generation-protocol|generation-thread\.js|node:internal\/worker/,
  ],
  ['quota, database, service', /dist\/service\/|better-sqlite3|dist\/adapters\/(sqlite|local-disk|memory)/],
  ['files and scratch', /node:fs|node:internal\/fs/],
  ['Deckforge HTTP layer', /dist\/http\/|dist\/composition\//],
  ['Fastify', /fastify|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse|@fastify\//],
  [
    'Node HTTP and streams',
    /node:_http|node:http|node:net|node:internal\/streams|node:stream|node:events|node:internal\/http|node:internal\/timers|node:internal\/process\/task_queues|node:internal\/async_hooks/,
  ],
];

/** esbuild marks each module of a bundle with a `// dist/...` line: a bundle's frame is named by its module. */
const bundleModules = new Map();
function moduleOf(url, line) {
  if (!url.endsWith('.bundle.js')) return url;
  if (!bundleModules.has(url)) {
    const starts = [];
    readFileSync(new URL(url), 'utf8')
      .split('\n')
      .forEach((text, i) => text.startsWith('// dist/') && starts.push([i, text.slice(3)]));
    bundleModules.set(url, starts);
  }
  let module = url;
  for (const [start, name] of bundleModules.get(url)) if (start <= line) module = name;
  return module;
}

function classify(frame) {
  const text = `${moduleOf(frame.url, frame.lineNumber)} ${frame.functionName}`;
  for (const [part, pattern] of RULES) if (pattern.test(text)) return part;
  return null;
}

const totals = new Map();
const add = (part, ms) => totals.set(part, (totals.get(part) ?? 0) + ms);
/** With --top N: the frames (leaf and the frame that named the part) that cost each part most. */
const top = Number(args.top ?? 0);
const frames = new Map();

for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const partOf = new Map();
  const resolve = (id) => {
    if (partOf.has(id)) return partOf.get(id);
    const node = byId.get(id);
    const name = node.callFrame.functionName;
    let part;
    if (name === '(idle)') part = '(idle)';
    else if (name === '(garbage collector)') part = 'GC';
    else part = classify(node.callFrame) ?? (parent.has(id) ? resolve(parent.get(id)) : null);
    partOf.set(id, part);
    return part;
  };
  // A thread's own samples: (program) and unknown frames are kept per thread, to tell main from generation.
  const thread = /\.\d+\.0\.\d+\.cpuprofile$/.test(file) ? 'main' : 'thread';
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    const delta = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i]) / 1000;
    if (at < from || at > to) continue;
    const part = resolve(profile.samples[i]);
    if (part === '(idle)') continue;
    const named =
      part === null || part === 'GC' ? `${part ?? 'runtime (program, V8, libuv)'}, ${thread}` : part;
    add(named, delta);
    if (top) {
      let id = profile.samples[i];
      const leaf = byId.get(id).callFrame;
      const chain = [];
      while (id !== undefined && chain.length < 6) {
        const f = byId.get(id).callFrame;
        chain.push(
          `${f.functionName || '(anon)'}@${moduleOf(f.url, f.lineNumber).replace(/^.*\/(dist|node_modules)\//, '')}`,
        );
        id = parent.get(id);
      }
      const key = `${named} | ${chain.join(' < ')}`;
      frames.set(key, (frames.get(key) ?? 0) + delta);
      void leaf;
    }
  }
}

const busy = [...totals.values()].reduce((a, b) => a + b, 0);
console.log(`| part | CPU ms${requests ? ' / request' : ''} | share |`);
console.log('|---|---:|---:|');
for (const [part, ms] of [...totals].sort((a, b) => b[1] - a[1])) {
  const shown = requests ? ms / requests : ms;
  console.log(`| ${part} | ${shown.toFixed(requests ? 3 : 0)} | ${((100 * ms) / busy).toFixed(1)} % |`);
}
console.log(
  `| total (not idle) | ${(requests ? busy / requests : busy).toFixed(requests ? 3 : 0)} | 100 % |`,
);

if (top) {
  console.log('');
  for (const [key, ms] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(requests ? ms / requests : ms).toFixed(3)} ${key}`);
  }
}
