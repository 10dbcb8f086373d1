/**
 * Scale-out soak: steady mixed load on the scaled-out topology (2 API nodes behind the round-robin
 * balancer, 2 workers; PostgreSQL, BullMQ on Redis, s3rver: test/support/servers/local-cluster.ts) for N minutes.
 *
 *   npx tsx bench/scale/soak.ts [--minutes 30] [--clients 4] [--pace-ms 250] [--grace-s 180]
 *                               [--out test-output/soak.json]
 *
 * Each client loops over a fixed mix, one request at a time, through the balancer: synchronous text (5 title
 * slides, layouts template), table (3 slides of a 6 × 5 table, table-decks.ts), chart (3 slides of a 3-series,
 * 4-category column chart, chart-templates.ts), picture (2 slides, an uploaded PNG and JPEG, picture-decks.ts),
 * then an asynchronous job of 5–20 title slides (not waited for: a watcher polls the jobs in the background).
 * A client starts a request at most every `--pace-ms`, so 4 clients stay under 4 × 60 000 / 250 = 960 requests
 * a minute, well under the 3 000 of the account's plan: Enterprise's request rate (src/config/plans.ts) with room
 * for 100 million slides (Enterprise's 100 000 a month would run out after about 20 minutes of this load).
 *
 * Reports per kind: count, failures, p50/p99 latency (sync: the whole answer; jobs: the 202 and submission →
 * SUCCEEDED); throughput; every process's RSS after the warm-up (a minute, or a fifth of a shorter run), every
 * 5 minutes and at the end; lost jobs (acknowledged with a 202 but not SUCCEEDED within the grace period after
 * the load); and `GET /v1.0/usage`'s usedSlideCount against the slides of successful answers (counted in each
 * returned .pptx) plus those of succeeded jobs: more is a double charge, less a missing one. Exits 1 on any
 * lost job, failed request or usage mismatch. The summary also goes to `--out` as JSON.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { BUILT_IN_PLANS } from '../../src/config/plans.js';
import { ensureBuilt } from '../../test/support/servers/build-once.js';
import { titleDeck, uploadForm } from '../../test/support/http/payloads.js';
import { TEMPLATE_NAME, templateBytes } from '../../test/support/servers/http-harness-paths.js';
import { chartDeck } from '../../test/support/decks/chart-templates.js';
import { startLocalCluster, type LocalCluster } from '../../test/support/servers/local-cluster.js';
import { picturesDeck } from '../../test/support/decks/picture-decks.js';
import { testRedisUrl } from '../../test/support/servers/redis-server.js';
import { testPostgresUrl } from '../../test/support/servers/shared-stores.js';
import { tablesDeck } from '../../test/support/decks/table-decks.js';
import { jpeg, png } from '../../test/support/decks/test-images.js';
import {
  bearer,
  JobWatcher,
  type Account,
  ms,
  numberOption,
  option,
  percentile,
  sleep,
  table,
  token,
} from './common.js';

const MINUTES = numberOption('minutes', 30);
const CLIENTS = numberOption('clients', 4);
const PACE_MS = numberOption('pace-ms', 250);
const GRACE_MS = numberOption('grace-s', 180) * 1000;
const OUT = option('out', 'test-output/soak.json');
const DURATION_MS = MINUTES * 60_000;
const WARM_UP_MS = Math.min(60_000, DURATION_MS / 5);
const RSS_EVERY_MS = 5 * 60_000;

type Kind = 'sync text' | 'sync table' | 'sync chart' | 'sync picture' | 'async job';
const KINDS: Kind[] = ['sync text', 'sync table', 'sync chart', 'sync picture', 'async job'];

interface Request {
  files: { name: string; bytes: Uint8Array }[];
  payload: unknown;
  /** Slides the deck should have. */
  slides: number;
}

const slide = (index: number, shapes: unknown[]) => ({ type: 'slide', slide_index: index, shapes });
const presentation = (template: string, slides: unknown[]) => ({
  presentation: { template, export_version: 'Pptx2019', slides },
});

const PNG = await png(240, 160);
const JPEG = await jpeg(320, 240);

/** The request of kind `kind`, the `n`th of its kind (values vary so that no two decks are the same). */
function requestOf(kind: Kind, n: number): Request {
  switch (kind) {
    case 'sync text':
      return { files: [{ name: TEMPLATE_NAME, bytes: templateBytes() }], payload: titleDeck(5), slides: 5 };
    case 'sync table': {
      const rows = [
        ['Region', 'Q1', 'Q2', 'Q3', 'Q4'],
        ...['North', 'South', 'East', 'West', 'Centre'].map((region, r) => [
          region,
          ...[1, 2, 3, 4].map((q) => n * 10 + r * q),
        ]),
      ];
      const slides = [1, 2, 3].map((s) =>
        slide(0, [
          { name: 'Title 1', content: `Figures ${n}.${s}` },
          { name: 'Table 1', content: rows },
        ]),
      );
      return {
        files: [{ name: 'tables.pptx', bytes: tablesDeck() }],
        payload: presentation('tables.pptx', slides),
        slides: 3,
      };
    }
    case 'sync chart': {
      const slides = [1, 2, 3].map((s) =>
        slide(0, [
          {
            name: 'Chart 5',
            content: {
              categories: ['Q1', 'Q2', 'Q3', 'Q4'],
              series: ['North', 'South', 'East'].map((name, k) => ({
                name,
                values: [1, 2, 3, 4].map((q) => ((n + s + k) % 7) + q * 1.5),
              })),
            },
          },
        ]),
      );
      return {
        files: [{ name: 'charts.pptx', bytes: chartDeck() }],
        payload: presentation('charts.pptx', slides),
        slides: 3,
      };
    }
    case 'sync picture': {
      const slides = [1, 2].map(() =>
        slide(0, [
          { name: 'imagePNG', content: 'photo.png' },
          { name: 'imageJPG', content: 'photo.jpg', fit: 'cover' },
        ]),
      );
      return {
        files: [
          { name: 'pictures.pptx', bytes: picturesDeck() },
          { name: 'photo.png', bytes: PNG },
          { name: 'photo.jpg', bytes: JPEG },
        ],
        payload: presentation('pictures.pptx', slides),
        slides: 2,
      };
    }
    case 'async job': {
      const slides = 5 + ((n * 7) % 16);
      return { files: [{ name: TEMPLATE_NAME, bytes: templateBytes() }], payload: titleDeck(slides), slides };
    }
  }
}

/** Slides in a .pptx: its ppt/slides/slideN.xml parts (nothing is inflated). */
function slidesIn(deck: Uint8Array): number {
  let count = 0;
  unzipSync(deck, {
    filter: (file) => {
      if (/^ppt\/slides\/slide\d+\.xml$/.test(file.name)) count += 1;
      return false;
    },
  });
  return count;
}

interface KindStats {
  count: number;
  failures: number;
  latencies: number[];
  slides: number;
  errors: string[];
}
const stats = new Map<Kind, KindStats>(
  KINDS.map((kind) => [kind, { count: 0, failures: 0, latencies: [], slides: 0, errors: [] }]),
);

function fail(kind: Kind, message: string): void {
  const s = stats.get(kind)!;
  s.failures += 1;
  if (s.errors.length < 5) s.errors.push(message);
}

async function client(
  index: number,
  base: string,
  bearerToken: string,
  watcher: JobWatcher,
  until: number,
): Promise<void> {
  const counters = new Map<Kind, number>();
  for (let turn = index; performance.now() < until; turn++) {
    const kind = KINDS[turn % KINDS.length]!;
    const n = (counters.get(kind) ?? 0) + 1;
    counters.set(kind, n);
    const request = requestOf(kind, n * CLIENTS + index);
    const form = uploadForm(request.payload, request.files);
    const s = stats.get(kind)!;
    s.count += 1;
    const started = performance.now();
    try {
      if (kind === 'async job') {
        const response = await fetch(`${base}/v2.0/generator/create-async`, {
          method: 'POST',
          body: form,
          headers: bearer(bearerToken),
        });
        const text = await response.text();
        s.latencies.push(performance.now() - started);
        if (response.status !== 202) fail(kind, `create-async ${response.status}: ${text.slice(0, 200)}`);
        else {
          const id = (JSON.parse(text) as { job_id: string }).job_id;
          watcher.add({ id, base, submittedAt: started, slides: request.slides });
        }
      } else {
        const response = await fetch(`${base}/v1.0/generator/create`, {
          method: 'POST',
          body: form,
          headers: bearer(bearerToken),
        });
        const body = new Uint8Array(await response.arrayBuffer());
        s.latencies.push(performance.now() - started);
        if (response.status !== 200) {
          fail(kind, `create ${response.status}: ${Buffer.from(body).toString('utf8').slice(0, 200)}`);
        } else {
          const slides = slidesIn(body);
          s.slides += slides;
          if (slides !== request.slides)
            fail(kind, `deck has ${slides} slides, the payload ${request.slides}`);
        }
      }
    } catch (error) {
      s.latencies.push(performance.now() - started);
      fail(kind, String(error));
    }
    const rest = PACE_MS - (performance.now() - started);
    if (rest > 0) await sleep(rest);
  }
}

interface RssSample {
  at: string;
  minute: number;
  kb: Record<string, number>;
}

function sampleRss(cluster: LocalCluster, label: string, t0: number): RssSample {
  const kb: Record<string, number> = {};
  for (const p of cluster.processes) kb[p.name] = p.running() ? p.rssKb() : 0;
  const sample = { at: label, minute: Number(((performance.now() - t0) / 60_000).toFixed(2)), kb };
  console.log(
    `RSS ${label.padEnd(8)} (min ${sample.minute.toFixed(1)}): ` +
      Object.entries(kb)
        .map(([name, value]) => `${name} ${(value / 1024).toFixed(0)} MB`)
        .join(', '),
  );
  return sample;
}

async function usedSlides(base: string, bearerToken: string): Promise<number> {
  const response = await fetch(`${base}/v1.0/usage`, { headers: bearer(bearerToken) });
  const json = (await response.json()) as { result?: { usedSlideCount?: number } };
  if (response.status !== 200 || json.result?.usedSlideCount === undefined) {
    throw new Error(`usage answered ${response.status}: ${JSON.stringify(json)}`);
  }
  return json.result.usedSlideCount;
}

await ensureBuilt();
const postgresUrl = await testPostgresUrl();
const redisUrl = await testRedisUrl();
if (!postgresUrl || !redisUrl) {
  console.error('The soak needs PostgreSQL and Redis (127.0.0.1:5432 and :6379, or DECKFORGE_TEST_* URLs).');
  process.exit(1);
}
console.log('Starting the cluster (2 API nodes, 2 workers of 1 generation thread) …');
// Enterprise's 100 000 slides a month last about 20 minutes of this load (~75 slides/s measured), so the soak's
// account gets a plan of its own with Enterprise's request rate and room for the slides of a long run.
const plansDir = mkdtempSync(join(tmpdir(), 'deckforge-soak-plans-'));
const plansFile = join(plansDir, 'plans.json');
const SOAK_PLAN = { name: 'Soak', allowedSlideCount: 100_000_000, requestsPerMinute: 3_000 };
writeFileSync(
  plansFile,
  JSON.stringify({
    default: BUILT_IN_PLANS.defaultPlan,
    firstAccount: BUILT_IN_PLANS.firstAccountPlan,
    plans: [...BUILT_IN_PLANS.plans, SOAK_PLAN],
  }),
);
const cluster = await startLocalCluster({
  postgresUrl,
  redisUrl,
  apiNodes: 2,
  workers: 2,
  workerThreads: 1,
  env: { DECKFORGE_PLANS: plansFile },
});
let exitCode: number;
try {
  const base = cluster.url;
  const account = JSON.parse(
    await cluster.cli([
      'accounts',
      'create',
      '--email',
      'soak@cluster.test',
      '--plan',
      SOAK_PLAN.name,
      '--json',
    ]),
  ) as Account;
  const bearerToken = await token(base, account);
  const usageBefore = await usedSlides(base, bearerToken);
  const watcher = new JobWatcher(bearerToken);
  const t0 = performance.now();
  const until = t0 + DURATION_MS;
  console.log(
    `Load: ${CLIENTS} clients through the balancer ${base}, one request at a time, at most one per ${PACE_MS} ms ` +
      `each, for ${MINUTES} min (warm-up ${(WARM_UP_MS / 1000).toFixed(0)} s).`,
  );
  let loadDone = false;
  const watching = (async () => {
    while (!loadDone) {
      await watcher.pass();
      await sleep(125);
    }
  })();
  const samples: RssSample[] = [];
  const sampling = (async () => {
    await sleep(WARM_UP_MS);
    samples.push(sampleRss(cluster, 'start', t0));
    for (let next = t0 + WARM_UP_MS + RSS_EVERY_MS; next < until - 30_000; next += RSS_EVERY_MS) {
      await sleep(next - performance.now());
      samples.push(sampleRss(cluster, 'periodic', t0));
    }
  })();
  const clients = Array.from({ length: CLIENTS }, (_, i) => client(i, base, bearerToken, watcher, until));
  const progress = setInterval(() => {
    const done = [...stats.values()].reduce((sum, s) => sum + s.count, 0);
    console.log(
      `  min ${((performance.now() - t0) / 60_000).toFixed(1)}: ${done} requests, ` +
        `${watcher.jobs.length} jobs (${watcher.unfinished} unfinished), load ${loadavg()[0]!.toFixed(1)}`,
    );
  }, 60_000);
  await Promise.all(clients);
  const loadEnded = performance.now();
  clearInterval(progress);
  await sampling;
  samples.push(sampleRss(cluster, 'end', t0));
  loadDone = true;
  await watching;
  console.log(`Load over; waiting up to ${GRACE_MS / 1000} s for ${watcher.unfinished} unfinished jobs …`);
  await watcher.untilDone(performance.now() + GRACE_MS);
  const usageAfter = await usedSlides(base, bearerToken);

  const jobs = stats.get('async job')!;
  const succeeded = watcher.jobs.filter((job) => job.state === 'SUCCEEDED');
  const jobsFailed = watcher.jobs.filter((job) => job.state === 'FAILED');
  for (const job of jobsFailed.slice(0, 5)) jobs.errors.push(`job ${job.id} FAILED: ${job.error}`);
  const lost = watcher.jobs.length - succeeded.length;
  jobs.slides = succeeded.reduce((sum, job) => sum + job.slides, 0);
  const completion = succeeded.map((job) => job.finishedAt! - job.submittedAt);
  const expectedSlides = [...stats.values()].reduce((sum, s) => sum + s.slides, 0);
  const charged = usageAfter - usageBefore;
  const loadSeconds = (loadEnded - t0) / 1000;
  const requests = [...stats.values()].reduce((sum, s) => sum + s.count, 0);
  const failures = [...stats.values()].reduce((sum, s) => sum + s.failures, 0) + jobsFailed.length;

  const start = samples[0]!;
  const end = samples[samples.length - 1]!;
  const rss = cluster.processes.map((p) => {
    const a = start.kb[p.name]!;
    const b = end.kb[p.name]!;
    return {
      process: p.name,
      startMb: a / 1024,
      endMb: b / 1024,
      changePercent: a > 0 ? ((b - a) / a) * 100 : NaN,
      samplesMb: samples.map((s) => Number((s.kb[p.name]! / 1024).toFixed(1))),
    };
  });
  const kinds = KINDS.map((kind) => {
    const s = stats.get(kind)!;
    return {
      kind,
      count: s.count,
      failures: s.failures,
      p50Ms: percentile(s.latencies, 50),
      p99Ms: percentile(s.latencies, 99),
      slides: s.slides,
      errors: s.errors,
    };
  });
  const summary = {
    takenAt: new Date().toISOString(),
    minutes: MINUTES,
    clients: CLIENTS,
    paceMs: PACE_MS,
    topology:
      '2 API nodes (serve --no-worker, 1 generation thread) behind a round-robin balancer, 2 workers (1 thread)',
    loadAverage: loadavg(),
    requests,
    requestsPerSecond: requests / loadSeconds,
    slidesPerSecond: expectedSlides / loadSeconds,
    kinds,
    jobs: {
      acknowledged: watcher.jobs.length,
      succeeded: succeeded.length,
      failed: jobsFailed.length,
      lost,
      completionP50Ms: percentile(completion, 50),
      completionP99Ms: percentile(completion, 99),
      pollErrors: watcher.pollErrors,
    },
    usage: {
      before: usageBefore,
      after: usageAfter,
      charged,
      expected: expectedSlides,
      equal: charged === expectedSlides,
    },
    rss,
  };
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(summary, null, 2) + '\n');

  console.log(
    `\nSoak: ${MINUTES} min, ${CLIENTS} clients, ${summary.takenAt}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `${requests} requests (${summary.requestsPerSecond.toFixed(1)}/s), ${expectedSlides} slides ` +
      `(${summary.slidesPerSecond.toFixed(1)}/s)\n`,
  );
  console.log(
    table([
      ['kind', 'count', 'failures', 'p50', 'p99', 'slides'],
      ...kinds.map((k) => [
        k.kind,
        String(k.count),
        String(k.failures),
        ms(k.p50Ms),
        ms(k.p99Ms),
        String(k.slides),
      ]),
      [
        'job: submission → SUCCEEDED',
        String(succeeded.length),
        String(jobsFailed.length),
        ms(summary.jobs.completionP50Ms),
        ms(summary.jobs.completionP99Ms),
        '',
      ],
    ]),
  );
  for (const k of kinds) for (const error of k.errors) console.log(`  ${k.kind}: ${error}`);
  console.log(
    `\njobs: ${watcher.jobs.length} acknowledged, ${succeeded.length} SUCCEEDED, ${jobsFailed.length} FAILED, ` +
      `${lost} lost (not SUCCEEDED ${GRACE_MS / 1000} s after the load)`,
  );
  console.log(
    `usage: usedSlideCount ${usageBefore} → ${usageAfter} (${charged} charged), successful slides ${expectedSlides}: ` +
      (charged === expectedSlides ? 'equal ✓' : charged > expectedSlides ? 'DOUBLE CHARGE ✗' : 'MISSING ✗'),
  );
  console.log('\nRSS (MB)');
  console.log(
    table([
      ['process', 'start', 'end', 'change', 'samples'],
      ...rss.map((r) => [
        r.process,
        r.startMb.toFixed(0),
        r.endMb.toFixed(0),
        `${r.changePercent >= 0 ? '+' : ''}${r.changePercent.toFixed(1)} %`,
        r.samplesMb.map((v) => v.toFixed(0)).join(' '),
      ]),
    ]),
  );
  console.log(`\nSummary written to ${OUT}`);
  exitCode = lost > 0 || failures > 0 || charged !== expectedSlides ? 1 : 0;
} finally {
  await cluster.stop();
  rmSync(plansDir, { recursive: true, force: true });
}
process.exit(exitCode);
