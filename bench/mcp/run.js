/**
 * The server CPU of an MCP `generate_deck` call against the same deck through `POST /v1.0/generator/create`
 * (docs/mcp.md, "generate_deck"), in one run, as a ratio. Read from the server process's own CPU time
 * (/proc/<pid>/stat: every thread, generation threads included), so the clients on the same machine do not blur
 * it. Both name one stored template (the 9 KB examples/sample-template.pptx, or --template FILE), with the same
 * jsonData (--slides copies of its first slide, each title filled). The REST answer is the deck itself; the tool
 * answers with a job id and a pre-signed link, the deck kept as a finished job (on SQLite and local disk, a small
 * one beside the job's row: docs/operations.md, "The data directory"). Rounds alternate the two, so background
 * load hits each alike; medians are kept, and the median of each round's own ratio (the figure to quote on a
 * machine whose speed drifts).
 *
 *   npm run build && node bench/mcp/run.js [--requests 100] [--rounds 5] [--slides 10] [--template FILE]
 *     [--only rest|mcp] [--cpu-prof DIR]
 *
 * `--only` runs one side; `--cpu-prof DIR` starts the server with `node --cpu-prof` into DIR (one profile per
 * thread, written when it stops).
 *
 * The MCP client is the SDK's own over Streamable HTTP (stateless: one POST per tool call), connected once. Linux
 * only (/proc). The server is `deckforge serve` on SQLite and local disk, in a temporary data directory.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// Not bench/support.js: that one wants the corpus, which this benchmark does not use.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const requests = Number(option('requests', 100));
const rounds = Number(option('rounds', 5));
const slides = Number(option('slides', 10));
const templatePath = option('template', join(ROOT, 'examples', 'sample-template.pptx'));
const template = readFileSync(templatePath);
const CLI = join(ROOT, 'bin', 'deckforge.js');
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

const dataDir = mkdtempSync(join(tmpdir(), 'deckforge-bench-mcp-'));
const env = { ...process.env, DECKFORGE_DATA_DIR: dataDir, DECKFORGE_LOG_LEVEL: 'warn' };
const port = await freePort();
const profile = option('cpu-prof', null);
const server = spawn(
  process.execPath,
  [...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : []), CLI, 'serve'],
  {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: 'ignore',
  },
);
const base = `http://127.0.0.1:${port}`;
let client;
try {
  for (let i = 0; ; i += 1) {
    const up = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
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
  const name = basename(templatePath);
  const storeForm = new FormData();
  storeForm.append('file', new Blob([template]), name);
  const stored = await fetch(`${base}/v1.0/templates`, { method: 'POST', body: storeForm, headers: auth });
  if (stored.status !== 201) throw new Error(`storing answered ${stored.status}: ${await stored.text()}`);
  const first = (
    await (await fetch(`${base}/v1.0/templates/${(await stored.json()).id}`, { headers: auth })).json()
  ).inspect.slides[0];
  const title = first.shapes.find((shape) => shape.kind === 'text')?.name;

  const jsonData = {
    presentation: {
      template: name,
      slides: Array.from({ length: slides }, (_, i) => ({
        slide_index: first.index,
        shapes: title === undefined ? [] : [{ name: title, content: `Slide ${i + 1}` }],
      })),
    },
  };
  client = new Client({ name: 'deckforge-bench', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: auth } }),
  );

  const all = {
    'POST /v1.0/generator/create': async () => {
      const body = new FormData();
      body.append('jsonData', JSON.stringify(jsonData));
      const response = await fetch(`${base}/v1.0/generator/create`, { method: 'POST', body, headers: auth });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`generation answered ${response.status}`);
    },
    'MCP generate_deck': async () => {
      const result = await client.callTool({ name: 'generate_deck', arguments: { jsonData } });
      if (result.isError || result.structuredContent?.status !== 'SUCCEEDED')
        throw new Error(`generate_deck answered ${JSON.stringify(result.content)}`);
    },
  };

  const only = option('only', null);
  const scenarios =
    only === null
      ? all
      : Object.fromEntries(Object.entries(all).filter(([s]) => (only === 'mcp') === s.startsWith('MCP')));

  async function run(call) {
    const startCpu = cpuMs(server.pid);
    const start = performance.now();
    for (let i = 0; i < requests; i += 1) await call();
    return { cpu: (cpuMs(server.pid) - startCpu) / requests, wall: (performance.now() - start) / requests };
  }

  for (const call of Object.values(scenarios)) await run(call); // warm-up
  const results = Object.fromEntries(Object.keys(scenarios).map((scenario) => [scenario, []]));
  const loadBefore = loadavg()[0];
  for (let round = 0; round < rounds; round += 1) {
    // Alternating which goes first, so neither always follows the other's garbage.
    const order = Object.entries(scenarios);
    if (round % 2 === 1) order.reverse();
    for (const [scenario, call] of order) results[scenario].push(await run(call));
  }
  const cpu = (scenario) => median(results[scenario].map((r) => r.cpu));
  const rest = results['POST /v1.0/generator/create'] ? cpu('POST /v1.0/generator/create') : Number.NaN;
  console.log(
    `| ${slides} slides of ${name}, ${requests} calls × ${rounds} rounds, one at a time | server CPU / call | × REST | wall / call |`,
  );
  console.log('|---|---:|---:|---:|');
  for (const scenario of Object.keys(scenarios)) {
    const wall = median(results[scenario].map((r) => r.wall));
    console.log(
      `| ${scenario} | ${cpu(scenario).toFixed(2)} ms | ${(cpu(scenario) / rest).toFixed(3)}× | ${wall.toFixed(1)} ms |`,
    );
  }
  if (results['POST /v1.0/generator/create'] && results['MCP generate_deck']) {
    // Each round's own ratio: the two sides of a round ran back to back, so a machine whose speed drifts over
    // the run (other work starting or ending) moves both alike.
    const ratios = results['MCP generate_deck'].map(
      (r, i) => r.cpu / results['POST /v1.0/generator/create'][i].cpu,
    );
    console.log(
      `\nmedian of the rounds' own ratios: ${median(ratios).toFixed(3)}× (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
  console.log(
    `\nper round (ms of server CPU per call): ${JSON.stringify(Object.fromEntries(Object.entries(results).map(([s, r]) => [s, r.map((x) => Number(x.cpu.toFixed(2)))])))}`,
  );
  console.log(
    `load average (1 min): ${loadBefore.toFixed(2)} before the rounds, ${loadavg()[0].toFixed(2)} after`,
  );
} finally {
  await client?.close().catch(() => undefined);
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
