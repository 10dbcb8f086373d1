/**
 * Stored templates against uploading the template each time (docs/http-api.md, "Stored templates"): server CPU
 * per synchronous 10-slide request, read from the server process's own CPU time (/proc/<pid>/stat: every thread,
 * generation threads included), so the load generator on the same machine does not blur it. Scenarios, in
 * alternating rounds so background load hits each alike (medians kept):
 *   small uploaded    the 9 KB examples/sample-template.pptx uploaded with each request;
 *   large uploaded    a 2 MB template uploaded with each request;
 *   large stored      the same 2 MB template stored once (POST /v1.0/templates), named in jsonData.
 *
 *   npm run build && node bench/http/stored-templates.js [--requests 100] [--connections 4] [--rounds 3] [--large FILE]
 *     [--only "small uploaded"] [--cpu-prof DIR]
 *
 * `--only` runs one scenario; `--cpu-prof DIR` starts the server with `node --cpu-prof` into DIR (one profile per
 * thread, written when it stops: bench/http/profile-breakdown.js reads them).
 *
 * Linux only (/proc). The server is `deckforge serve` on SQLite and local disk, in a temporary data directory.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const args = Object.fromEntries(
  process.argv
    .slice(2)
    .reduce(
      (pairs, arg, i, all) => (arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs),
      [],
    ),
);
const requests = Number(args.requests ?? 100);
const connections = Number(args.connections ?? 4);
const rounds = Number(args.rounds ?? 3);
const largePath =
  args.large ??
  join(root, '..', 'shared', 'corpus', 'poi', 'ca.ubc.cs.people_~emhill_presentations_HowWeRefactor.pptx');
const small = readFileSync(join(root, 'examples', 'sample-template.pptx'));
const large = readFileSync(largePath);
const CLI = join(root, 'bin', 'deckforge.js');
/** Clock ticks per second of /proc/<pid>/stat's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of the line; after "pid (comm) " they are at 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

const dataDir = mkdtempSync(join(tmpdir(), 'deckforge-bench-stored-'));
const env = { ...process.env, DECKFORGE_DATA_DIR: dataDir, DECKFORGE_LOG_LEVEL: 'warn' };
const port = await freePort();
const profileArgs = args['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', args['cpu-prof']] : [];
const server = spawn(process.execPath, [...profileArgs, CLI, 'serve'], {
  env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
try {
  for (let i = 0; ; i += 1) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 300) throw new Error('deckforge serve did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const account = JSON.parse(
    execFileSync(
      process.execPath,
      [CLI, 'accounts', 'create', '--email', 'bench@example.test', '--plan', 'Operator', '--json'],
      { env },
    ).toString(),
  );
  const tokenForm = new FormData();
  tokenForm.append('username', account.email);
  tokenForm.append('password', account.password);
  tokenForm.append('key', account.key);
  const token = (await (await fetch(`${base}/v1.0/token/create`, { method: 'POST', body: tokenForm })).json())
    .Result.Access_Token;
  const auth = { authorization: `Bearer ${token}` };
  const storeForm = new FormData();
  storeForm.append('file', new Blob([large]), 'large.pptx');
  const stored = await fetch(`${base}/v1.0/templates`, { method: 'POST', body: storeForm, headers: auth });
  if (stored.status !== 201) throw new Error(`storing answered ${stored.status}: ${await stored.text()}`);

  const payload = (template) =>
    JSON.stringify({
      presentation: { template, slides: Array.from({ length: 10 }, () => ({ slide_index: 0 })) },
    });
  const allScenarios = {
    'small uploaded': () => form(payload('small.pptx'), [['small.pptx', small]]),
    'large uploaded': () => form(payload('large.pptx'), [['large.pptx', large]]),
    'large stored': () => form(payload('large.pptx'), []),
  };
  const scenarios = args.only ? { [args.only]: allScenarios[args.only] } : allScenarios;
  if (Object.values(scenarios).includes(undefined)) throw new Error(`--only: no scenario "${args.only}"`);
  function form(jsonData, files) {
    const body = new FormData();
    for (const [name, bytes] of files) body.append('files', new Blob([bytes]), name);
    body.append('jsonData', jsonData);
    return body;
  }

  async function run(makeBody) {
    let next = 0;
    const latencies = [];
    const startCpu = cpuMs(server.pid);
    const start = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (next < requests) {
          next += 1;
          const began = performance.now();
          const response = await fetch(`${base}/v1.0/generator/create`, {
            method: 'POST',
            body: makeBody(),
            headers: auth,
          });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`generation answered ${response.status}`);
          latencies.push(performance.now() - began);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      cpu: (cpuMs(server.pid) - startCpu) / requests,
      rps: requests / seconds,
      p50: latencies[Math.floor(latencies.length * 0.5)],
      p99: latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))],
    };
  }

  for (const makeBody of Object.values(scenarios)) await run(makeBody); // warm-up
  const results = Object.fromEntries(Object.keys(scenarios).map((name) => [name, []]));
  // CLOCK_MONOTONIC in µs, the clock of a CPU profile's timestamps: the measured rounds' window in the profiles.
  const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
  const windowStart = monotonicUs();
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, makeBody] of Object.entries(scenarios)) results[name].push(await run(makeBody));
  }
  if (args['cpu-prof']) {
    const measured = requests * rounds * Object.keys(scenarios).length;
    console.log(
      `profiles: node bench/http/profile-breakdown.js ${args['cpu-prof']} --window ${windowStart}-${monotonicUs()} --requests ${measured}\n`,
    );
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const smallCpu = median((results['small uploaded'] ?? Object.values(results)[0]).map((r) => r.cpu));
  console.log(
    `| scenario (10 slides, ${connections} connections, ${requests} requests × ${rounds} rounds) | server CPU / request | × small uploaded | requests/s | p50 | p99 |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [name, runs] of Object.entries(results)) {
    const cpu = median(runs.map((r) => r.cpu));
    console.log(
      `| ${name} | ${cpu.toFixed(1)} ms | ${(cpu / smallCpu).toFixed(2)}× | ${median(runs.map((r) => r.rps)).toFixed(0)} | ` +
        `${median(runs.map((r) => r.p50)).toFixed(0)} ms | ${median(runs.map((r) => r.p99)).toFixed(0)} ms |`,
    );
  }
  console.log(`\nlarge template: ${largePath} (${(large.byteLength / 1024 / 1024).toFixed(2)} MB)`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
