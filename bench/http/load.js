/* global process -- a Node global (eslint.config.js declares none for plain .js) */
/**
 * The load generator of bench/http/run.js, in its own process so that autocannon's work does not share the
 * server's event loop. Reads one JSON argument, prints one JSON line: autocannon's figures plus the p50 of the
 * server's Server-Timing `generate` duration.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const { url, headers, bodyFile, connections, duration, amount } = JSON.parse(process.argv[2]);
const body = readFileSync(bodyFile);
const serviceTimes = [];
const result = await autocannon({
  url,
  connections,
  ...(amount ? { amount } : { duration }),
  requests: [
    {
      method: 'POST',
      headers,
      body,
      onResponse: (_status, _body, _context, responseHeaders) => {
        const timing = /generate;dur=([\d.]+)/.exec(String(responseHeaders?.['server-timing'] ?? ''));
        if (timing) serviceTimes.push(Number(timing[1]));
      },
    },
  ],
});
serviceTimes.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    serviceP50: serviceTimes[Math.floor(serviceTimes.length / 2)] ?? null,
  })}\n`,
);
