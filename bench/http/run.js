/* global process, console, URL, performance, fetch, URLSearchParams, FormData, Blob, Request, Buffer -- Node 20 globals (eslint.config.js declares none for plain .js) */
/**
 * HTTP benchmark (issue 3, "Speed"): synchronous generation of a 10-slide deck under 16 concurrent clients, with
 * autocannon, against the built server (dist/). Prints a markdown table: requests per second, p50 / p99 latency,
 * and how much the HTTP layer adds to the engine's own time for the same request.
 *
 *   npm run build && node bench/http/run.js [--connections 16] [--duration 20] [--slides 10] [--template FILE]
 *
 * Three figures are compared:
 *   engine    generate() in this process, sequentially, template cache warm (the engine's own time);
 *   1 client  the same request over HTTP, one at a time (engine time + HTTP parsing, auth, quota, worker hop);
 *   N clients the same request under load: latency includes waiting for one of the pool's workers.
 * "HTTP adds" at one client is (HTTP p50 − engine p50) / engine p50: the target is under 10 %. Under load the
 * per-request cost is pool size ÷ throughput, compared with the engine p50 the same way.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile, spawnSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce(
      (pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs),
      [],
    ),
);
const connections = Number(args.connections ?? 16);
const duration = Number(args.duration ?? 20);
const slides = Number(args.slides ?? 10);
const templatePath = args.template ?? join(root, '..', 'shared', 'corpus', 'poi', 'layouts.pptx');

if (!existsSync(join(root, 'dist', 'http', 'server.js'))) {
  console.error('dist/ is missing: building first (npm run build)');
  spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}
const dist = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
const { configWith, parsePlanCatalog } = await dist('config/index.js');
const { createRuntime, createLogger } = await dist('composition/index.js');
const { createHttpServer } = await dist('http/server.js');
const { generate, TemplateCache } = await dist('engine/index.js');
const { WorkerThreadPool } = await dist('worker/worker-thread-pool.js');

const templateName = 'template.pptx';
const template = new Uint8Array(readFileSync(templatePath));
const payload = {
  presentation: {
    template: templateName,
    resultFileName: 'bench',
    slides: Array.from({ length: slides }, (_, i) => ({
      type: 'slide',
      slide_index: 0,
      shapes: [
        { name: 'Title 1', content: `Slide ${i + 1}` },
        { name: 'Subtitle 2', content: `Benchmark slide ${i + 1} of ${slides}` },
      ],
    })),
  },
};

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

// 1. The engine's own time, in process, template cache warm (as in a pool worker after its first request).
const cache = new TemplateCache(4);
const engineRun = () => generate({ payload, files: new Map([[templateName, template]]), cache });
for (let i = 0; i < 30; i++) engineRun();
const engineTimes = [];
for (let i = 0; i < 200; i++) {
  const started = performance.now();
  engineRun();
  engineTimes.push(performance.now() - started);
}
const progress = (message) => process.stderr.write(`${message}\n`);
progress('engine measured');
const engineP50 = percentile(engineTimes, 50);
const engineP99 = percentile(engineTimes, 99);

// 2. The real server: SQLite in a temporary data dir, the worker pool, logs at info to /dev/null.
const dataDir = mkdtempSync(join(tmpdir(), 'deckforge-bench-'));
const config = configWith({
  port: 0,
  host: '127.0.0.1',
  dataDir,
  logLevel: 'info',
  plans: parsePlanCatalog(
    { plans: [{ name: 'Bench', allowedSlideCount: 1e9, requestsPerMinute: 1e6 }] },
    'bench',
  ),
  limits: { syncMaxSlides: Math.max(slides, 1000) },
});
const sink = pino.destination('/dev/null');
const runtime = await createRuntime(config, { logger: createLogger(config, sink) });
const server = await createHttpServer(runtime.service, config, { logStream: sink });
const base = await server.listen();
const account = await runtime.admin.create({ email: 'bench@example.test', plan: 'Bench' });
const tokenResponse = await fetch(`${base}/v1.0/token/create`, {
  method: 'POST',
  body: new URLSearchParams({ username: account.email, password: account.password, key: account.key }),
});
const token = (await tokenResponse.json()).Result.Access_Token;

const form = new FormData();
form.append('files', new Blob([template]), templateName);
form.append('jsonData', JSON.stringify(payload));
const encoded = new Request(base, { method: 'POST', body: form });
const body = Buffer.from(await encoded.arrayBuffer());
const headers = { authorization: `Bearer ${token}`, 'content-type': encoded.headers.get('content-type') };

const bodyFile = join(dataDir, 'request-body.bin');
writeFileSync(bodyFile, body);

/** autocannon in a child process (load.js): the client must not share the server's event loop. */
function load(clients, options) {
  const spec = { url: `${base}/v1.0/generator/create`, headers, bodyFile, connections: clients, ...options };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'bench', 'http', 'load.js'), JSON.stringify(spec)],
      (error, stdout) => {
        if (error) return reject(error);
        const result = JSON.parse(stdout);
        if (result.failures > 0)
          return reject(new Error(`${result.failures} of ${result.total} requests failed`));
        resolve(result);
      },
    );
  });
}

/** The same requests straight into the worker pool, `inFlight` at a time: the engine's own time under load. */
async function poolOnly(inFlight, seconds) {
  const pool = new WorkerThreadPool(config.workers);
  const task = () => pool.generate({ payload, files: new Map([[templateName, template.slice()]]) });
  // Warm every worker's template cache and JIT, as the HTTP runs were warmed.
  await Promise.all(Array.from({ length: config.workers * 8 }, task));
  const latencies = [];
  let done = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < deadline) {
      const begun = performance.now();
      // A fresh copy each time (task()): the pool transfers (detaches) the buffers it is given.
      await task();
      latencies.push(performance.now() - begun);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, client));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    requestsPerSecond: done / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

progress(`server at ${base}`);
await load(connections, { amount: connections * 4 }); // warm every worker's template cache
progress('warmed up');
const single = await load(1, { duration: 10 });
progress('1 client done');
const loaded = await load(connections, { duration });
progress(`${connections} clients done`);
await server.close();
await runtime.close();
rmSync(dataDir, { recursive: true, force: true });
const poolSingle = await poolOnly(1, 10);
const poolLoaded = await poolOnly(connections, duration);
progress('pool-only runs done');

const ms = (value) => `${value.toFixed(1)} ms`;
const pct = (value) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;
const row = (name, r, engine) =>
  `| ${name} | ${r.requestsPerSecond.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ${engine ? pct((r.p50 - engine.p50) / engine.p50) : '-'} |`;
console.log(`## HTTP benchmark: ${slides}-slide synchronous generation\n`);
console.log(
  `Template ${templatePath} (${template.length} bytes), ${config.workers} pool workers, ${availableParallelism()} CPUs, Node ${process.version}. ` +
    'Load generator in a separate process on the same machine.\n',
);
console.log('| measure | req/s | p50 | p99 | HTTP adds at p50 |');
console.log('|---|---|---|---|---|');
console.log(
  row(
    'engine in-process, sequential',
    { requestsPerSecond: 1000 / engineP50, p50: engineP50, p99: engineP99 },
    null,
  ),
);
console.log(row('engine via worker pool, 1 in flight', poolSingle, null));
console.log(row('HTTP, 1 client', single, poolSingle));
console.log(row(`engine via worker pool, ${connections} in flight`, poolLoaded, null));
console.log(row(`HTTP, ${connections} clients`, loaded, poolLoaded));
console.log(
  `\n"HTTP adds" compares each HTTP row with the worker-pool row at the same concurrency (same engine, same threads, ` +
    `no HTTP, auth, quota or database). Server-Timing (time inside the service call, incl. waiting for a worker): ` +
    `p50 ${ms(single.serviceP50)} at 1 client, ${ms(loaded.serviceP50)} at ${connections}; time outside it at p50: ` +
    `${ms(single.p50 - single.serviceP50)} and ${ms(loaded.p50 - loaded.serviceP50)}.`,
);
