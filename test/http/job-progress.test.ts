/**
 * A running job says how far it is (docs/http-api.md, Asynchronous): polled over a real socket while a large
 * deck is built, its status carries `progress` with slides written of the total, never going back, and null
 * once the job has ended. A job that renders (a real LibreOffice) then tells its pages: the PDF's count when
 * the conversion ends, and the slide pictures drawn so far as they are drawn.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { submitJob } from '../support/http/jobs-polling.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';

const SAMPLE = new Uint8Array(readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx')));
const SLIDES = 1000;

interface Status {
  status: string;
  file_url: string | null;
  progress: { slides_done: number; slides_total: number; pages_rendered: number | null } | null;
}

let server: RunningServer;
let token: string;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  token = (await server.signUp({ plan: 'Operator' })).token;
}, 300_000);
afterAll(async () => server.close());

/** Every status of the job `body` submits, polled every 20 ms until it ends. */
async function pollToEnd(body: FormData): Promise<Status[]> {
  const jobId = await submitJob(server.base, token, body);
  const seen: Status[] = [];
  const deadline = Date.now() + 240_000;
  for (;;) {
    const response = await fetch(`${server.base}/v2.0/jobs/${jobId}/status`, { headers: bearer(token) });
    const status = (await response.json()) as Status;
    seen.push(status);
    if (status.status === 'SUCCEEDED' || status.status === 'FAILED') return seen;
    if (Date.now() > deadline) throw new Error('the job did not end within 240 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

it('reports slides written of the total while PROCESSING, and null once ended', async () => {
  const body = new FormData();
  body.append('files', new Blob([SAMPLE]), 't.pptx');
  const slides = Array.from({ length: SLIDES }, (_, i) => ({
    slide_index: 1,
    shapes: [{ name: 'Title', content: `Slide ${i + 1}` }],
  }));
  body.append('jsonData', JSON.stringify({ presentation: { template: 't.pptx', slides } }));
  const seen = await pollToEnd(body);
  const last = seen.at(-1)!;
  expect(last.status).toBe('SUCCEEDED');
  expect(last.progress).toBeNull();
  for (const s of seen) if (s.status !== 'PROCESSING') expect(s.progress).toBeNull();
  const reports = seen.filter((s) => s.progress !== null).map((s) => s.progress!);
  expect(reports.length).toBeGreaterThan(0);
  for (const r of reports) {
    expect(r.slides_total).toBe(SLIDES);
    expect(r.slides_done).toBeGreaterThanOrEqual(0);
    expect(r.slides_done).toBeLessThanOrEqual(SLIDES);
    expect(r.pages_rendered).toBeNull();
  }
  const done = reports.map((r) => r.slides_done);
  expect(done).toEqual([...done].sort((a, b) => a - b));
  const deck = await fetch(last.file_url!);
  await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), SAMPLE);
}, 300_000);

describeWithLibreOffice('a job that renders', () => {
  const PAGES = 25;

  function renderJob(fields: Record<string, string>): FormData {
    const body = new FormData();
    body.append('files', new Blob([SAMPLE]), 't.pptx');
    const slides = Array.from({ length: PAGES }, (_, i) => ({
      slide_index: 1,
      shapes: [{ name: 'Title', content: `Slide ${i + 1}` }],
    }));
    body.append('jsonData', JSON.stringify({ presentation: { template: 't.pptx', slides } }));
    for (const [name, value] of Object.entries(fields)) body.append(name, value);
    return body;
  }

  function processing(seen: Status[]): NonNullable<Status['progress']>[] {
    const last = seen.at(-1)!;
    expect([last.status, last.progress]).toEqual(['SUCCEEDED', null]);
    return seen.filter((s) => s.status === 'PROCESSING' && s.progress !== null).map((s) => s.progress!);
  }

  it('format=pdf: pages_rendered is the PDF page count once converted, after every slide is written', async () => {
    const reports = processing(await pollToEnd(renderJob({ format: 'pdf' })));
    // The count is written when the conversion ends, moments before the job succeeds: a poller sees it or not
    // (on a quiet machine, mostly not). What it sees must be true; the previews test below, whose pictures take
    // seconds, shows that the counts reach the status at all.
    const rendered = reports.filter((r) => r.pages_rendered !== null);
    for (const r of rendered)
      expect([r.slides_done, r.slides_total, r.pages_rendered]).toEqual([PAGES, PAGES, PAGES]);
    // Nothing rendered is claimed before the deck is whole.
    for (const r of reports.filter((r) => r.slides_done < PAGES)) expect(r.pages_rendered).toBeNull();
  }, 300_000);

  it('previews: pages_rendered counts the slide pictures as they are drawn, never going back', async () => {
    const reports = processing(await pollToEnd(renderJob({ previews: 'png', preview_width: '160' })));
    const pages = reports.map((r) => r.pages_rendered).filter((p): p is number => p !== null);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages).toEqual([...pages].sort((a, b) => a - b));
    // Drawn ten at a time: only counts that were true at some moment.
    for (const p of pages) expect([0, 10, 20, PAGES]).toContain(p);
    expect(new Set(pages).size).toBeGreaterThan(1);
  }, 300_000);
});
