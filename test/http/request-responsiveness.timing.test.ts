/**
 * Nothing of one request blocks the others (docs/security.md): work in proportion to what one account sends runs
 * on a generation thread, never on the server's main thread. Under each attack — 20 MB of jsonData built to take
 * seconds to parse (ten million numbers in a key the schema ignores, within every limit), sent for a deck and for
 * a job, and a deck naming 300 fonts no machine has, rendered — the event loop is never held 200 ms longer than
 * an idle process on the same machine is delayed meanwhile, /healthz answers within 200 ms (95 % of its answers:
 * the rest, on a loaded machine, measure the scheduler), and another account's small deck takes at most twice its
 * time alone, plus 25 ms of scheduler noise. One server, two generation threads; the form of
 * render-copy-responsiveness.timing.test.ts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewDeck } from '../support/decks/preview-decks.js';
import { missingFonts, withTricks } from '../support/decks/render-tricks.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { idleProcessDelay, median, pause, percentile, timed } from '../support/http/responsiveness.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

let server: RunningServer;
let attacker: string;
let victim: string;

beforeAll(async () => {
  server = await startServer({ overrides: { workers: 2 } });
  attacker = (await server.signUp({ plan: 'Enterprise' })).token;
  victim = (await server.signUp({ plan: 'Enterprise' })).token;
  // Warm: both threads have the small deck's template cached (a cold thread parses it first).
  for (let i = 0; i < 3; i++) await Promise.all([timed(smallDeck), timed(smallDeck)]);
}, 120_000);
afterAll(async () => server?.close());

const health = (): Promise<Response> => fetch(`${server.base}/healthz`);
const smallDeck = (): Promise<Response> =>
  fetch(`${server.base}/v1.0/generator/create`, {
    method: 'POST',
    body: uploadForm(titleDeck(1)),
    headers: bearer(victim),
  });

interface Seen {
  /** What the attack ended with: an HTTP status, or a job's final state. */
  outcome: number | string;
  health: number[];
  victim: number[];
  lag: number;
  idleLag: number;
}

/** Runs `attack`; while it is in flight, polls /healthz every 50 ms and sends the victim's small deck every 100 ms. */
async function during(attack: () => Promise<number | string>): Promise<Seen> {
  const stopIdle = idleProcessDelay();
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let done = false;
  const pending = attack().finally(() => (done = true));
  const seen = { health: [] as number[], victim: [] as number[] };
  const polling = (async () => {
    while (!done) {
      seen.health.push(await timed(health));
      await pause(50);
    }
  })();
  const victims = (async () => {
    while (!done) {
      seen.victim.push(await timed(smallDeck));
      await pause(100);
    }
  })();
  const outcome = await pending;
  await Promise.all([polling, victims]);
  lag.disable();
  return { ...seen, outcome, lag: lag.max / 1e6 - 10, idleLag: await stopIdle() };
}

/** 20 MB of jsonData for one slide: ten million numbers under a key the schema ignores (with a warning). */
function slowToParse(): string {
  const text = JSON.stringify({ ...titleDeck(1), ignored: 0 });
  return text.replace('"ignored":0', `"ignored":[${'0,'.repeat(10_000_000 - 1)}0]`);
}

function check(seen: Seen, alone: number[], name: string, expected: number | string): void {
  const figures =
    `health p95 ${percentile(seen.health, 0.95).toFixed(0)} ms, max ${Math.max(...seen.health).toFixed(0)} ms ` +
    `(${seen.health.length} polls), loop lag ${seen.lag.toFixed(0)} ms (an idle process's ${seen.idleLag.toFixed(0)} ms), ` +
    `small deck ${median(seen.victim).toFixed(0)} ms (${seen.victim.length} runs) against ` +
    `${median(alone).toFixed(0)} ms alone (${alone.length} runs)`;
  console.info(`${name}: ${figures}`);
  expect(seen.outcome, figures).toBe(expected);
  expect(seen.health.length, figures).toBeGreaterThan(0);
  expect(seen.lag, figures).toBeLessThan(seen.idleLag + 200);
  expect(percentile(seen.health, 0.95), figures).toBeLessThan(200);
  // Twice its time alone, plus 25 ms: on a loaded machine a deck of some 20 ms varies by as much on its own.
  expect(median(seen.victim), figures).toBeLessThan(2 * median(alone) + 25);
}

/** The victim's small deck with nothing else running, for about as long as an attack. */
async function alone(ms: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    times.push(await timed(smallDeck));
    await pause(100);
  }
  return times;
}

describe('jsonData built to take long to parse holds nobody up', () => {
  const text = slowToParse();

  it('20 MB of jsonData for a deck: /healthz within 200 ms, another account’s small deck within twice its time alone', async () => {
    expect(text.length).toBeGreaterThan(20_000_000);
    const seen = await during(async () => {
      const response = await fetch(`${server.base}/v1.0/generator/create`, {
        method: 'POST',
        body: uploadForm(text),
        headers: bearer(attacker),
      });
      await response.arrayBuffer();
      return response.status;
    });
    check(seen, await alone(3000), '20 MB of jsonData, synchronous', 200);
  }, 180_000);

  it('20 MB of jsonData for a job, stored as text and parsed when it runs: the same', async () => {
    const seen = await during(async () => {
      const jobId = await submitJob(server.base, attacker, uploadForm(text));
      return (await pollUntil(server.base, attacker, jobId, ['SUCCEEDED', 'FAILED'])).last.status;
    });
    check(seen, await alone(3000), '20 MB of jsonData, as a job', 'SUCCEEDED');
  }, 180_000);
});

describeWithLibreOffice('a deck naming 300 missing fonts holds nobody up', () => {
  it('rendered: /healthz within 200 ms, another account’s small deck within twice its time alone', async () => {
    // Fonts of new names each time: the server remembers what it looked up. Built before anything is timed.
    const render = (deck: Uint8Array) => async (): Promise<number> => {
      const form = new FormData();
      form.append('files', new Blob([deck]), 'fonts.pptx');
      const response = await fetch(`${server.base}/v1.0/render`, {
        method: 'POST',
        body: form,
        headers: bearer(attacker),
      });
      await response.arrayBuffer();
      return response.status;
    };
    const warmUp = render(withTricks(previewDeck(1), missingFonts(300, 'Deckforge Warm-up')));
    const attack = render(withTricks(previewDeck(1), missingFonts(300, 'Deckforge Missing')));
    expect(await warmUp()).toBe(200); // a renderer started: its start is not the fonts' doing
    const seen = await during(attack);
    check(seen, await alone(3000), '300 missing fonts, rendered', 200);
  }, 180_000);
});
