/**
 * Scale-out: N asynchronous 10-slide jobs submitted at once to the embedded default (one `deckforge
 * serve`: SQLite, in-process queue, local disk) and to the scaled-out topology on the same machine (2 API nodes
 * `serve --no-worker` and 2 `deckforge worker` processes on PostgreSQL, BullMQ on Redis and s3rver, from
 * test/support/servers/local-cluster.ts); then the queue's own cost per job (bench/queue/overhead.js).
 *
 *   npx tsx bench/scale/jobs.ts [--jobs 500] [--slides 10] [--accounts 1] [--connections N]
 *                               [--only embedded|cluster]
 *
 * Needs PostgreSQL and Redis on 127.0.0.1 (5432, 6379) or DECKFORGE_TEST_DATABASE_URL / DECKFORGE_TEST_REDIS_URL;
 * builds dist/ first when src/ changed. Both topologies get the same payload (titleDeck: N title slides of the
 * layouts template, uploaded with each job) and an Enterprise account; each first runs 4 untimed jobs, so the
 * generation threads and connections are warm. With `--accounts K` the jobs are spread over K such accounts in
 * turn (each worker caps one account at its own claims − 1, job-consumer.ts). `--connections C` keeps at most C submissions in flight (a client with a connection pool of C) instead
 * of all N at once: a node's PostgreSQL pool (10 connections, 5 s wait by default) answers 500 to the requests
 * that wait longer for a connection, which hundreds of simultaneous uploads on a loaded machine do.
 *
 * Generation threads for jobs: the embedded default on 2 cores has DECKFORGE_WORKERS = 2 and `serve` keeps one
 * of them for synchronous requests, so jobs run on 1 thread. The cluster has 2 workers of 1 thread each
 * (workerThreads 1): 2 threads on a 2-core machine that also runs both API nodes, PostgreSQL, Redis and s3rver;
 * more threads than cores would only contend. API nodes keep their default single generation thread (unused here).
 */
import { loadavg } from 'node:os';
import { ensureBuilt } from '../../test/support/servers/build-once.js';
import { titleDeck, uploadForm } from '../../test/support/http/payloads.js';
import { startLocalCluster } from '../../test/support/servers/local-cluster.js';
import { testRedisUrl } from '../../test/support/servers/redis-server.js';
import { testPostgresUrl } from '../../test/support/servers/shared-stores.js';
import {
  JobWatcher,
  ms,
  numberOption,
  option,
  percentile,
  queueOverhead,
  startEmbedded,
  submitJob,
  table,
  token,
  type Account,
} from './common.js';

const JOBS = numberOption('jobs', 500);
const SLIDES = numberOption('slides', 10);
const ONLY = option('only', 'both');
const ACCOUNTS = numberOption('accounts', 1);
/** Submissions in flight at once (default: every job at once). */
const CONNECTIONS = numberOption('connections', JOBS);
const WARM_UP_JOBS = 4;

interface Outcome {
  name: string;
  submitAllMs: number;
  elapsedMs: number;
  jobsPerSecond: number;
  p50: number;
  p99: number;
  /** Submissions answered with anything but a 202. */
  refused: number;
  failed: number;
  lost: number;
  pollErrors: number;
}

/** Submits `count` jobs at once, spread over `bases` in turn, and watches them to the end. */
async function burst(
  bases: string[],
  tokens: string[],
  count: number,
): Promise<{ watchers: JobWatcher[]; lastAckAt: number; refused: string[] }> {
  // One watcher per account (a status is only its own account's), each watching its oldest jobs.
  const watchers = tokens.map((bearerToken) => new JobWatcher(bearerToken));
  const payload = titleDeck(SLIDES);
  type Answer =
    { id: string; base: string; owner: number; submittedAt: number; ackedAt: number } | { error: string };
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  const submissions = Array.from({ length: count }, async (_, i): Promise<Answer> => {
    if (inFlight >= CONNECTIONS) await new Promise<void>((resolve) => waiting.push(resolve));
    inFlight += 1;
    try {
      return await submitOne(i);
    } finally {
      inFlight -= 1;
      waiting.shift()?.();
    }
  });
  async function submitOne(i: number): Promise<Answer> {
    const base = bases[i % bases.length]!;
    const owner = i % tokens.length;
    const submittedAt = performance.now();
    try {
      const id = await submitJob(base, tokens[owner]!, uploadForm(payload));
      return { id, base, owner, submittedAt, ackedAt: performance.now() };
    } catch (error) {
      // A refused submission is a failure to report, not a reason to stop measuring the others.
      return { error: `${base}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  const answers = await Promise.all(submissions);
  const refused = answers.flatMap((answer) => ('error' in answer ? [answer.error] : []));
  const acked = answers.flatMap((answer) => ('error' in answer ? [] : [answer]));
  // The watchers poll in submission order (oldest first), as the queue claims them.
  for (const job of acked.sort((a, b) => a.submittedAt - b.submittedAt)) {
    watchers[job.owner]!.add({ id: job.id, base: job.base, submittedAt: job.submittedAt, slides: SLIDES });
  }
  return { watchers, lastAckAt: Math.max(...acked.map((job) => job.ackedAt)), refused };
}

const untilDone = (watchers: JobWatcher[], deadline: number): Promise<boolean[]> =>
  Promise.all(watchers.map((watcher) => watcher.untilDone(deadline)));

async function measure(name: string, bases: string[], accounts: Account[]): Promise<Outcome> {
  const tokens = await Promise.all(accounts.map((account) => token(bases[0]!, account)));
  const warm = await burst(bases, tokens, WARM_UP_JOBS);
  await untilDone(warm.watchers, performance.now() + 120_000);
  console.log(
    `${name}: submitting ${JOBS} jobs of ${SLIDES} slides, ${Math.min(CONNECTIONS, JOBS)} at once, ` +
      `to ${bases.length} node(s) ` +
      `from ${accounts.length} account(s) …`,
  );
  const firstSubmit = performance.now();
  const { watchers, lastAckAt, refused } = await burst(bases, tokens, JOBS);
  const submitAllMs = lastAckAt - firstSubmit;
  console.log(
    `${name}: ${JOBS - refused.length} acknowledged in ${submitAllMs.toFixed(0)} ms` +
      `${refused.length > 0 ? `, ${refused.length} REFUSED` : ''}; polling …`,
  );
  for (const error of [...new Set(refused)].slice(0, 3)) console.log(`${name}: refused: ${error}`);
  await untilDone(watchers, performance.now() + 30 * 60_000);
  const all = watchers.flatMap((watcher) => watcher.jobs);
  const succeeded = all.filter((job) => job.state === 'SUCCEEDED');
  const failed = all.filter((job) => job.state === 'FAILED');
  for (const job of failed.slice(0, 3)) console.log(`${name}: job ${job.id} FAILED: ${job.error}`);
  const lastDone = Math.max(...succeeded.map((job) => job.finishedAt!));
  const elapsedMs = lastDone - firstSubmit;
  const times = succeeded.map((job) => job.finishedAt! - job.submittedAt);
  const outcome: Outcome = {
    name,
    submitAllMs,
    elapsedMs,
    jobsPerSecond: (succeeded.length / elapsedMs) * 1000,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    refused: refused.length,
    failed: failed.length,
    lost: JOBS - refused.length - succeeded.length - failed.length,
    pollErrors: watchers.reduce((sum, watcher) => sum + watcher.pollErrors, 0),
  };
  console.log(
    `${name}: ${succeeded.length} SUCCEEDED in ${(elapsedMs / 1000).toFixed(1)} s ` +
      `(${outcome.jobsPerSecond.toFixed(1)} jobs/s), p50 ${ms(outcome.p50)}, p99 ${ms(outcome.p99)}, ` +
      `${outcome.refused} refused, ${outcome.failed} FAILED, ${outcome.lost} not final`,
  );
  return outcome;
}

async function embedded(): Promise<Outcome> {
  const server = await startEmbedded('Enterprise', { accounts: ACCOUNTS });
  try {
    return await measure('embedded', [server.url], server.accounts);
  } finally {
    await server.stop();
  }
}

async function cluster(): Promise<Outcome> {
  const postgresUrl = await testPostgresUrl();
  const redisUrl = await testRedisUrl();
  if (!postgresUrl || !redisUrl) {
    throw new Error(
      'the cluster needs PostgreSQL and Redis (127.0.0.1:5432 and :6379, or DECKFORGE_TEST_* URLs)',
    );
  }
  const running = await startLocalCluster({
    postgresUrl,
    redisUrl,
    apiNodes: 2,
    workers: 2,
    workerThreads: 1,
  });
  try {
    // Straight to the API nodes in turn: the balancer would add a hop of this process's own.
    const apis = running.processes.filter((p) => p.role === 'api').map((p) => p.url!);
    const accounts = [running.account];
    for (let i = 2; i <= ACCOUNTS; i++) {
      const created = await running.cli([
        'accounts',
        'create',
        '--email',
        `bench-${i}@cluster.test`,
        '--plan',
        'Enterprise',
        '--json',
      ]);
      const { email, password, key } = JSON.parse(created) as Account;
      accounts.push({ email, password, key });
    }
    const outcome = await measure('cluster (2 API, 2 workers)', apis, accounts);
    if (outcome.refused + outcome.failed + outcome.lost > 0) {
      // What the servers said (errors and worse, pino level ≥ 50): the cluster's logs go when it stops.
      for (const p of running.processes) {
        const errors = p
          .log()
          .split('\n')
          .filter((line) => /"level":(50|60)/.test(line));
        for (const line of errors.slice(0, 3)) console.log(`${p.name}: ${line.slice(0, 1500)}`);
        if (errors.length > 3) console.log(`${p.name}: … ${errors.length} error lines in all`);
      }
    }
    return outcome;
  } finally {
    await running.stop();
  }
}

await ensureBuilt();
const outcomes: Outcome[] = [];
if (ONLY !== 'cluster') outcomes.push(await embedded());
if (ONLY !== 'embedded') outcomes.push(await cluster());
console.log('\nqueue overhead (bench/queue/overhead.js) …');
const overhead = await queueOverhead(JOBS);
console.log(overhead.output);

const ratio = (of: (o: Outcome) => number): string => {
  const [a, b] = outcomes;
  return a && b ? `${(of(b) / of(a)).toFixed(2)}×` : '—';
};
const rows: string[][] = [
  ['', ...outcomes.map((o) => o.name), 'ratio (cluster ÷ embedded)'],
  ['submit all (to last 202)', ...outcomes.map((o) => ms(o.submitAllMs)), ratio((o) => o.submitAllMs)],
  ['first submit → last SUCCEEDED', ...outcomes.map((o) => ms(o.elapsedMs)), ratio((o) => o.elapsedMs)],
  ['jobs per second', ...outcomes.map((o) => o.jobsPerSecond.toFixed(1)), ratio((o) => o.jobsPerSecond)],
  ['p50 submission → SUCCEEDED', ...outcomes.map((o) => ms(o.p50)), ratio((o) => o.p50)],
  ['p99 submission → SUCCEEDED', ...outcomes.map((o) => ms(o.p99)), ratio((o) => o.p99)],
  ['refused / FAILED / not final', ...outcomes.map((o) => `${o.refused} / ${o.failed} / ${o.lost}`), ''],
  [
    'queue overhead per job (no generation)',
    ...outcomes.map((o) =>
      o.name === 'embedded' ? `${overhead.sqliteMs} ms (SQLite)` : `${overhead.bullmqMs} ms (BullMQ)`,
    ),
    outcomes.length === 2 ? `${(overhead.bullmqMs / overhead.sqliteMs).toFixed(1)}×` : '',
  ],
];
console.log(
  `\n${JOBS} jobs of ${SLIDES} slides from ${ACCOUNTS} account(s), ${Math.min(CONNECTIONS, JOBS)} submissions at once, ${new Date().toISOString()}, load average ` +
    `${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}\n`,
);
console.log(table(rows));
const target = overhead.bullmqMs < 5 ? '✓' : '✗ not met';
console.log(`\nBullMQ overhead ${overhead.bullmqMs} ms/job against the target of under 5 ms: ${target}`);
const bad = outcomes.some((o) => o.refused > 0 || o.failed > 0 || o.lost > 0);
if (bad) console.log('FAILURES: some jobs did not succeed (see above).');
process.exitCode = bad ? 1 : 0;
