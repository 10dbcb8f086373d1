/**
 * The scaled-out topology on one machine, with real processes: `deckforge migrate` once, API nodes
 * (`deckforge serve --no-worker`) behind a round-robin TCP balancer, `deckforge worker` processes, all on one
 * PostgreSQL database of their own, one Redis key prefix of their own and an S3 server (s3rver) of their own.
 * The end-to-end test, the scale benchmarks and `npm run cluster` start it from here. Each process runs the built
 * `bin/deckforge.js` with the environment an operator would set; its output goes to a log file in the cluster's
 * directory. The cluster keeps the real time, as a deployment's nodes, PostgreSQL, Redis and S3 share one clock
 * (real-clock.ts): under a moved clock (CI's `npm test`) only the test that drives it runs ahead.
 * (No vitest import here: scripts and benchmarks use it too.)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureBuilt } from './build-once.js';
import { CLI_PATH, REPO_ROOT } from './http-harness-paths.js';
import { deleteKeys } from './redis-server.js';
import { realClockEnv } from './real-clock.js';
import { startLocalS3, type LocalS3 } from './s3-server.js';
import { startTcpRelay } from './tcp-relay.js';
import { createTestDatabase } from './shared-stores.js';

const run = promisify(execFile);

export interface ClusterOptions {
  /** A PostgreSQL server; the cluster creates a database of its own on it and drops it at the end. */
  postgresUrl: string;
  /** A Redis server; the cluster's keys go under a prefix of its own, deleted at the end. */
  redisUrl: string;
  apiNodes?: number;
  workers?: number;
  /** Generation threads per API node (synchronous requests) and per worker (jobs at once). */
  apiThreads?: number;
  workerThreads?: number;
  /** The plan of the account the cluster creates (default Enterprise). */
  accountPlan?: string;
  /** More environment for every process (plans, limits, log level). */
  env?: Record<string, string>;
  /** Keep the database, keys, files and logs at stop (the npm script keeps nothing either; tests may). */
  keep?: boolean;
}

export interface ClusterProcess {
  name: string;
  role: 'api' | 'worker';
  pid: number;
  /** Set for API nodes. */
  url: string | null;
  running(): boolean;
  /** Resident memory in KiB, from /proc. */
  rssKb(): number;
  kill(signal: NodeJS.Signals): Promise<void>;
  log(): string;
}

export interface LocalCluster {
  /** The balancer: what clients use. */
  url: string;
  processes: ClusterProcess[];
  account: { email: string; password: string; key: string };
  databaseUrl: string;
  redisPrefix: string;
  s3: LocalS3;
  env: Record<string, string>;
  dir: string;
  /** Starts one more worker (after one was killed, say). */
  addWorker(): Promise<ClusterProcess>;
  /** Runs a `deckforge` command with the cluster's environment and returns its standard output. */
  cli(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startLocalCluster(options: ClusterOptions): Promise<LocalCluster> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-cluster-'));
  const database = await createTestDatabase(options.postgresUrl);
  const redisPrefix = `deckforge-cluster-${randomBytes(4).toString('hex')}`;
  const s3 = await startLocalS3('deckforge-cluster', realClockEnv());
  // The balancer: a relay sending each new connection to the next API node, as a load balancer would.
  let apiNodes: URL[] = [];
  let nextNode = 0;
  const balancer = await startTcpRelay(() => apiNodes[nextNode++ % apiNodes.length]);
  const balancerUrl = `http://127.0.0.1:${balancer.port}`;
  const processes: ClusterProcess[] = [];
  const env: Record<string, string> = {
    DECKFORGE_DATABASE_URL: database.url,
    DECKFORGE_REDIS_URL: options.redisUrl,
    DECKFORGE_REDIS_PREFIX: redisPrefix,
    DECKFORGE_S3_BUCKET: s3.bucket,
    DECKFORGE_S3_ENDPOINT: s3.endpoint,
    DECKFORGE_S3_REGION: 'us-east-1',
    DECKFORGE_S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
    DECKFORGE_PUBLIC_URL: balancerUrl,
    HOST: '127.0.0.1',
    DECKFORGE_LOG_LEVEL: 'warn',
    ...options.env,
  };
  const cli = async (args: string[]): Promise<string> => {
    const { stdout } = await run(process.execPath, [CLI_PATH, ...args], {
      cwd: REPO_ROOT,
      env: { ...realClockEnv(), ...env },
    });
    return stdout;
  };
  let workerCount = 0;
  const launch = (role: 'api' | 'worker', name: string, threads: number) =>
    startProcess({
      name,
      role,
      args: role === 'api' ? ['serve', '--no-worker'] : ['worker'],
      env: {
        ...env,
        PORT: '0',
        DECKFORGE_WORKERS: String(threads),
        DECKFORGE_DATA_DIR: join(dir, name),
      },
      logFile: join(dir, `${name}.log`),
    });
  const addWorker = async (): Promise<ClusterProcess> => {
    workerCount += 1;
    const worker = await launch('worker', `worker-${workerCount}`, options.workerThreads ?? 1);
    processes.push(worker);
    return worker;
  };
  const stop = async (): Promise<void> => {
    await balancer.down();
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await s3.stop();
    if (!options.keep) {
      await database.drop().catch(() => undefined);
      await deleteKeys(options.redisUrl, redisPrefix).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    }
  };

  try {
    await cli(['migrate']);
    const created = JSON.parse(
      await cli([
        'accounts',
        'create',
        '--email',
        'ops@cluster.test',
        '--plan',
        options.accountPlan ?? 'Enterprise',
        '--json',
      ]),
    ) as { email: string; password: string; key: string };
    const apis = await Promise.all(
      Array.from({ length: options.apiNodes ?? 2 }, (_, i) =>
        launch('api', `api-${i + 1}`, options.apiThreads ?? 1),
      ),
    );
    processes.push(...apis);
    apiNodes = apis.map((api) => new URL(api.url!));
    for (let i = 0; i < (options.workers ?? 2); i++) await addWorker();
    return {
      url: balancerUrl,
      processes,
      account: { email: created.email, password: created.password, key: created.key },
      databaseUrl: database.url,
      redisPrefix,
      s3,
      env,
      dir,
      addWorker,
      cli,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface ProcessSpec {
  name: string;
  role: 'api' | 'worker';
  args: string[];
  env: Record<string, string>;
  logFile: string;
}

const READY = {
  api: /Deckforge is listening on (http:\/\/\S+)/,
  worker: /Deckforge worker is running/,
};

/** Starts one `deckforge` process and waits for its ready line (the API node's carries its URL). */
async function startProcess(spec: ProcessSpec): Promise<ClusterProcess> {
  mkdirSync(spec.env.DECKFORGE_DATA_DIR!, { recursive: true });
  const child: ChildProcess = spawn(process.execPath, [CLI_PATH, ...spec.args], {
    cwd: REPO_ROOT,
    env: { ...realClockEnv(), ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(spec.logFile);
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string | null>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${spec.name} did not start within 60 s:\n${output}`)),
      60_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = READY[spec.role].exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1] ?? null);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${spec.name} exited with ${code} before it was ready:\n${output}`));
    });
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name: spec.name,
    role: spec.role,
    pid: child.pid!,
    url,
    running,
    rssKb() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    },
    async kill(signal) {
      if (!running()) return;
      child.kill(signal);
      await exited;
    },
    log: () => readFileSync(spec.logFile, 'utf8'),
  };
}
