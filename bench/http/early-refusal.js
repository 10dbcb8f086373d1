#!/usr/bin/env node
/**
 * Time to first byte of the 401 for a 2 MB upload with a bad token, against a running
 * `deckforge serve`: Node's fetch (until its response headers) and curl (time_starttransfer), with curl's
 * `Expect: 100-continue` and without it. Failures (EPIPE, resets) are counted, not timed.
 *
 *   node bench/http/early-refusal.js http://127.0.0.1:8080 [runs=20]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const runs = Number(process.argv[3] ?? 20);
const url = `${base}/v1.0/generator/create`;
const template = randomBytes(2_000_000);
const jsonData = JSON.stringify({ presentation: { template: 'deck.pptx', slides: [] } });
const dir = mkdtempSync(join(tmpdir(), 'deckforge-bench-'));
const templatePath = join(dir, 'deck.pptx');
writeFileSync(templatePath, template);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)];
};

async function viaFetch() {
  const form = new FormData();
  form.append('files', new Blob([template]), 'deck.pptx');
  form.append('jsonData', jsonData);
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers: { authorization: 'Bearer bad' }, body: form });
  const ms = performance.now() - started;
  await response.arrayBuffer();
  return { status: response.status, ms };
}

function viaCurl(extra) {
  const out = execFileSync(
    'curl',
    [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code} %{time_starttransfer}',
      '-H',
      'Authorization: Bearer bad',
      ...extra,
      '-F',
      `files=@${templatePath}`,
      '-F',
      `jsonData=${jsonData}`,
      url,
    ],
    { encoding: 'utf8' },
  ).trim();
  const [status, seconds] = out.split(' ');
  return { status: Number(status), ms: Number(seconds) * 1000 };
}

const clients = {
  'Node fetch': viaFetch,
  'curl (Expect: 100-continue)': async () => viaCurl([]),
  'curl (no Expect)': async () => viaCurl(['-H', 'Expect:']),
};

try {
  for (const [name, send] of Object.entries(clients)) {
    const times = [];
    const failures = new Map();
    for (let i = 0; i < runs; i++) {
      try {
        const { status, ms } = await send();
        if (status === 401) times.push(ms);
        else failures.set(`status ${status}`, (failures.get(`status ${status}`) ?? 0) + 1);
      } catch (error) {
        const reason =
          typeof error?.status === 'number'
            ? `curl exit ${error.status}`
            : (error?.cause?.code ?? error?.code ?? error?.message ?? String(error));
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      }
    }
    const failed = [...failures].map(([reason, count]) => `${count}× ${reason}`).join(', ') || 'none';
    console.log(
      `${name.padEnd(28)} 401s ${String(times.length).padStart(2)}/${runs}  ` +
        `TTFB median ${median(times).toFixed(1)} ms, max ${(times.length ? Math.max(...times) : NaN).toFixed(1)} ms  failures: ${failed}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
