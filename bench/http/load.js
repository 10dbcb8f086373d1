/**
 * The load generator of bench/http/run.js, in its own process so that the client's work does not share the
 * server's event loop. Reads one JSON argument, prints one JSON line.
 *   connections > 1: autocannon for `duration` seconds (or `amount` requests);
 *   connections = 1: `amount` sequential fetches timed with performance.now() (autocannon rounds to 1 ms,
 *   too coarse for requests that take a few milliseconds).
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const { url, headers, bodyFile, connections, duration, amount } = JSON.parse(process.argv[2]);
const body = readFileSync(bodyFile);
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function sequential() {
  const latencies = [];
  const started = performance.now();
  let failures = 0;
  for (let i = 0; i < amount; i++) {
    const begun = performance.now();
    const response = await fetch(url, { method: 'POST', headers, body });
    await response.arrayBuffer();
    latencies.push(performance.now() - begun);
    if (response.status !== 200) failures += 1;
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: amount / ((performance.now() - started) / 1000),
    total: amount,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    failures,
  };
}

async function concurrent() {
  const result = await autocannon({
    url,
    connections,
    method: 'POST',
    headers,
    body,
    ...(amount ? { amount } : { duration }),
  });
  return {
    requestsPerSecond: result.requests.total / (result.duration || duration),
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const cpuBefore = process.cpuUsage();
const result = connections === 1 ? await sequential() : await concurrent();
const cpu = process.cpuUsage(cpuBefore);
// The client's own CPU per request: on a 2-core machine it competes with the server for the same cores.
result.clientCpuMs = (cpu.user + cpu.system) / 1000 / Math.max(1, result.total);
process.stdout.write(`${JSON.stringify(result)}\n`);
