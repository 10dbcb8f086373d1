/**
 * HTTP benchmark: synchronous generation of a 10-slide deck under 16 concurrent clients, with
 * autocannon, against the built server (dist/). Prints a markdown table: requests per second, p50 / p99 latency,
 * and how much the HTTP layer adds to the engine's own time for the same request.
 *
 *   npm run build && node bench/http/run.js [--connections 16] [--duration 10] [--rounds 3] [--slides 10] [--template FILE]
 *
 * Compared, at one client and at N clients:
 *   engine via pool  the same generation straight into a worker pool of the same size (no HTTP, auth, quota,
 *                    database): the engine's own time as production runs it, off the event loop;
 *   service          the same request through the service facade in process: payload parse, quota (SQLite),
 *                    the same pool; no HTTP;
 *   HTTP             the full request through Fastify, auth, rate limit, quota (SQLite) and the same pool;
 *   bare Fastify     Fastify and @fastify/multipart alone, same upload, a reply of the same size: the floor
 *                    of the transport on this machine, with nothing of Deckforge in it.
 * "HTTP adds" is (HTTP p50 − pool p50) / pool p50; the target is under 10 %. Main-thread time per request
 * (event-loop utilisation × wall time ÷ requests) is the CPU the HTTP layer and the service spend per request
 * outside the engine (wall time, so it includes being preempted on a busy machine). Server CPU per request
 * (process.cpuUsage: all threads of the server process) is immune to preemption: "HTTP adds in CPU" compares it
 * with the pool-only run's. Client CPU per request is the load generator's own (autocannon or fetch): on a
 * 2-core machine it competes with the server for the same cores, which the pool-only runs do not have to.
 * The closing line splits the server's own time per request (from /metrics) into time in the generation pool
 * and time outside it: the HTTP layer's direct cost, without the CPU it takes from the engine.
 * Rounds alternate pool and HTTP runs so background load hits both alike; medians kept.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile, spawnSync } from 'node:child_process';
import { availableParallelism, tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';
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
const duration = Number(args.duration ?? 10);
const rounds = Number(args.rounds ?? 3);
const slides = Number(args.slides ?? 10);
const templatePath = args.template ?? join(root, '..', 'shared', 'corpus', 'poi', 'layouts.pptx');

if (!existsSync(join(root, 'dist', 'http', 'server.js'))) {
  console.error('dist/ is missing: building first (npm run build:dist)');
  spawnSync('npm', ['run', 'build:dist'], { cwd: root, stdio: 'inherit' });
}
const dist = (path) => import(new URL(`../../dist/${path}`, import.meta.url).href);
const { configWith, parsePlanCatalog } = await dist('config/index.js');
const { createRuntime, createLogger } = await dist('composition/index.js');
const { createWebServer } = await dist('composition/create-web-server.js');
const { generate, TemplateCache } = await dist('engine/index.js');
const { WorkerThreadPool } = await dist('adapters/generation-threads/worker-thread-pool.js');

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
// Asynchronous, as the production logger writes (src/composition/logger.ts).
const sink = pino.destination({ dest: '/dev/null', sync: false, minLength: 4096 });
const runtime = await createRuntime(config, { logger: createLogger(config, sink) });
const server = await createWebServer(runtime.service, config, { logStream: sink });
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

/** Cumulative server-side timings from /metrics: generation requests, and time in the generation pool. */
async function serverTimings() {
  const text = await (await fetch(`${base}/metrics`)).text();
  const read = (pattern) => Number(new RegExp(`^${pattern} ([\\d.e+-]+)$`, 'm').exec(text)?.[1] ?? 0);
  const route = '\\{method="POST",route="/v1.0/generator/create",status="200"\\}';
  return {
    requestSum: read(`deckforge_http_request_duration_seconds_sum${route}`),
    requestCount: read(`deckforge_http_request_duration_seconds_count${route}`),
    serviceCount: read('deckforge_sync_generation_duration_seconds_count'),
    poolSum: read('deckforge_generation_seconds'),
  };
}

/** The load generator (load.js) in a child process: it must not share the server's event loop. */
async function load(clients, options) {
  const before = await serverTimings();
  const result = await measure(`${base}/v1.0/generator/create`, clients, options);
  const after = await serverTimings();
  const mean = (sum, count) =>
    ((after[sum] - before[sum]) / Math.max(1, after[count] - before[count])) * 1000;
  return {
    ...result,
    // Means per request, inside the server: the whole request, and the pool alone (waiting for a worker
    // thread, then generating).
    serverMs: mean('requestSum', 'requestCount'),
    poolMs: mean('poolSum', 'serviceCount'),
  };
}

/** load.js against `url`, with this process's CPU and event-loop time per request while it ran. */
async function measure(url, clients, options) {
  const spec = { url, headers, bodyFile, connections: clients, ...options };
  const elu = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  const result = await new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [join(root, 'bench', 'http', 'load.js'), JSON.stringify(spec)],
      (error, stdout) => {
        if (error) return reject(error);
        resolve(JSON.parse(stdout));
      },
    );
  });
  const busy = performance.eventLoopUtilization(elu);
  const used = process.cpuUsage(cpu);
  if (result.failures > 0) throw new Error(`${result.failures} of ${result.total} requests failed`);
  return {
    ...result,
    mainThreadMs: busy.active / result.total,
    cpuMs: (used.user + used.system) / 1000 / result.total,
  };
}

// The floor of any server on this stack: Fastify and @fastify/multipart alone read the same upload and answer
// as many bytes as Deckforge's reply, with no authentication, quota, payload check, engine or logging.
const replyBytes = Buffer.alloc(
  (await (await fetch(`${base}/v1.0/generator/create`, { method: 'POST', headers, body })).arrayBuffer())
    .byteLength,
);
const bare = Fastify();
await bare.register(multipart, { limits: { fileSize: 1e9 } });
bare.post('/', async (request, reply) => {
  for await (const part of request.parts()) if (part.type === 'file') await part.toBuffer();
  return reply.type('application/octet-stream').send(replyBytes);
});
const bareBase = await bare.listen({ port: 0, host: '127.0.0.1' });

/** The same generations straight into a worker pool of the same size, `inFlight` at a time. */
const pool = new WorkerThreadPool(config.workers);
// A fresh copy each time: the pool transfers (detaches) the buffers it is given.
const poolTask = () => pool.generate({ payload, files: new Map([[templateName, template.slice()]]) });
await Promise.all(Array.from({ length: config.workers * 8 }, poolTask)); // warm caches and JIT

async function poolOnly(inFlight, { seconds, amount }) {
  const latencies = [];
  let done = 0;
  const cpu = process.cpuUsage();
  const deadline = performance.now() + (seconds ?? Infinity) * 1000;
  const started = performance.now();
  const client = async () => {
    while (performance.now() < deadline && (amount === undefined || done < amount)) {
      done += 1;
      const begun = performance.now();
      await poolTask();
      latencies.push(performance.now() - begun);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, client));
  const elapsed = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return {
    requestsPerSecond: done / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMs: (used.user + used.system) / 1000 / done,
  };
}

/** The same request through the service facade in process (auth, quota, payload parse, pool), without HTTP. */
const serviceAccount = await runtime.service.authenticate(token);
async function serviceOnly(amount) {
  const latencies = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < amount; i++) {
    const begun = performance.now();
    await runtime.service.generateNow(serviceAccount, {
      jsonData: JSON.stringify(payload),
      files: [{ name: templateName, bytes: template.slice() }],
    });
    latencies.push(performance.now() - begun);
  }
  const used = process.cpuUsage(cpu);
  return {
    requestsPerSecond: amount / ((performance.now() - started) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpuMs: (used.user + used.system) / 1000 / amount,
  };
}

const median = (runs, pick) => percentile(runs.map(pick), 50);
function summarise(runs) {
  const keys = Object.keys(runs[0]).filter((key) => typeof runs[0][key] === 'number');
  return Object.fromEntries(keys.map((key) => [key, median(runs, (run) => run[key])]));
}

progress(`server at ${base}`);
await load(connections, { amount: connections * 4 }); // warm every worker's template cache
progress('warmed up');
const runs = { poolSingle: [], serviceSingle: [], single: [], poolLoaded: [], loaded: [], bare: [] };
for (let round = 1; round <= rounds; round++) {
  runs.poolSingle.push(await poolOnly(1, { amount: 200 }));
  runs.serviceSingle.push(await serviceOnly(200));
  runs.single.push(await load(1, { amount: 200 }));
  runs.poolLoaded.push(await poolOnly(connections, { seconds: duration }));
  runs.loaded.push(await load(connections, { duration }));
  runs.bare.push(await measure(`${bareBase}/`, connections, { duration }));
  progress(`round ${round} of ${rounds} done`);
}
const poolSingle = summarise(runs.poolSingle);
const single = summarise(runs.single);
const serviceSingle = summarise(runs.serviceSingle);
const poolLoaded = summarise(runs.poolLoaded);
const loaded = summarise(runs.loaded);
const bareLoaded = summarise(runs.bare);
await bare.close();
await pool.close();
await server.close();
await runtime.close();
rmSync(dataDir, { recursive: true, force: true });

const ms = (value) => `${value.toFixed(1)} ms`;
const pct = (value) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)} %`;
const row = (name, r, reference) =>
  `| ${name} | ${r.requestsPerSecond.toFixed(1)} | ${ms(r.p50)} | ${ms(r.p99)} | ` +
  `${r.cpuMs === undefined ? '-' : ms(r.cpuMs)} | ${r.mainThreadMs === undefined ? '-' : ms(r.mainThreadMs)} | ` +
  `${r.clientCpuMs === undefined ? '-' : ms(r.clientCpuMs)} | ` +
  `${reference ? pct((r.p50 - reference.p50) / reference.p50) : '-'} | ` +
  `${reference && r.cpuMs !== undefined ? pct((r.cpuMs - reference.cpuMs) / reference.cpuMs) : '-'} |`;
console.log(`## HTTP benchmark: ${slides}-slide synchronous generation\n`);
console.log(
  `Template \`${templatePath}\` (${template.length} bytes); ${config.workers} pool workers; ${availableParallelism()} CPUs; ` +
    `Node ${process.version}; load generator in a separate process on the same machine; medians of ${rounds} rounds.\n`,
);
console.log(
  '| run | req/s | p50 | p99 | server CPU per request | main-thread busy per request | client CPU per request | HTTP adds at p50 | HTTP adds in CPU |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(
  row(
    'engine in-process, sequential',
    { requestsPerSecond: 1000 / engineP50, p50: engineP50, p99: engineP99 },
    null,
  ),
);
console.log(row('engine via pool, 1 in flight', poolSingle, null));
console.log(row('service call in process, sequential', serviceSingle, poolSingle));
console.log(row('HTTP, 1 client', single, poolSingle));
console.log(row(`engine via pool, ${connections} in flight`, poolLoaded, null));
console.log(row(`HTTP, ${connections} clients`, loaded, poolLoaded));
console.log(row(`bare Fastify + multipart, ${connections} clients (no engine)`, bareLoaded, null));
console.log(
  `\nInside the server, per request (means from /metrics): at 1 client ${ms(single.serverMs)} in all, ` +
    `${ms(single.poolMs)} of it in the generation pool; at ${connections} clients ${ms(loaded.serverMs)} in all, ` +
    `${ms(loaded.poolMs)} in the pool (waiting for a worker thread, then generating). Time outside the pool ` +
    `(HTTP, authentication, quota, hand-off, reply) against time in it: ` +
    `${pct((single.serverMs - single.poolMs) / single.poolMs)} at 1 client, ` +
    `${pct((loaded.serverMs - loaded.poolMs) / loaded.poolMs)} at ${connections}. ` +
    `That is the HTTP layer's direct cost; "HTTP adds at p50" also counts its indirect cost, the CPU it and the ` +
    `load generator take from the engine on the same cores.`,
);
