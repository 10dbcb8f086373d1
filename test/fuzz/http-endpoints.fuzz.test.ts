/**
 * Property through the real server: whatever a client sends to the generation endpoints (generated
 * jsonData in any of the three body styles, real, damaged or random files under awkward names, bodies that are
 * not what their Content-Type says), the answer is a success or a 4xx in the interface's shapes, never a 500
 * and never a hang; submitted jobs all end SUCCEEDED or FAILED; the server is healthy afterwards and logged
 * no server fault.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackageInvariantsAgainst } from '../support/checks/package-invariants.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { pollUntil } from '../support/http/jobs-polling.js';
import { edgeString, fuzzParameters, fuzzTimeout, jsonData, jsonText } from './arbitraries.js';

const RUNS = 80;
const PER_CASE_MS = 15_000;
const template = templateBytes();

let server: RunningServer;
let token: string;
const jobs: string[] = [];
let validated = 0;

beforeAll(async () => {
  server = await startServer({ overrides: { workers: 2, logLevel: 'warn' } });
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

type Upload = { name: string; bytes: Uint8Array };

const fileName = fc.oneof(
  { weight: 6, arbitrary: fc.constant(TEMPLATE_NAME) },
  { weight: 1, arbitrary: edgeString.filter((n) => n.length < 200) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('../../layouts.pptx', 'LAYOUTS.PPTX', 'picture.png', 'a\r\nb.pptx'),
  },
);

const fileBytes = fc.oneof(
  { weight: 6, arbitrary: fc.constant(template) },
  { weight: 1, arbitrary: fc.nat().map((n) => template.slice(0, n % template.length)) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]) => {
      const copy = template.slice();
      copy[at % copy.length] = byte;
      return copy;
    }),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }) },
);

const uploads = fc.array(fc.record({ name: fileName, bytes: fileBytes }), { minLength: 0, maxLength: 3 });

/** A request body, and the template it uploads (what a deck made from it is compared with). */
type Body = { body: RequestInit['body']; headers: Record<string, string>; template: Uint8Array };

/** How a counterexample is printed: what was sent, not "[object FormData]". */
function described(body: Body, description: string): Body {
  return Object.assign(body, { [fc.toStringMethod]: () => description });
}

function multipart(data: string, files: Upload[]): Body {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([file.bytes]), file.name);
  form.append('jsonData', data);
  const list = files.map((f) => `${JSON.stringify(f.name)} (${f.bytes.length} bytes)`).join(', ');
  const uploaded = files.find((f) => f.name === TEMPLATE_NAME)?.bytes ?? template;
  return described(
    { body: form, headers: {}, template: uploaded },
    `multipart files [${list}] jsonData ${data.slice(0, 20000)}`,
  );
}

const requestBody: fc.Arbitrary<Body> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(jsonData(TEMPLATE_NAME), uploads)
      .map(([data, files]) => multipart(jsonText(data), files)),
  },
  {
    weight: 1,
    arbitrary: jsonData(TEMPLATE_NAME).map((data) => {
      const text = jsonText(data);
      return described(
        { body: new URLSearchParams({ jsonData: text }), headers: {}, template },
        `urlencoded ${text}`,
      );
    }),
  },
  {
    weight: 1,
    arbitrary: jsonData(TEMPLATE_NAME).map((data) => {
      const text = `{"jsonData":${jsonText(data)}}`;
      return described(
        { body: text, headers: { 'content-type': 'application/json' }, template },
        `json ${text}`,
      );
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.uint8Array({ maxLength: 3_000 }),
        fc.constantFrom(
          'multipart/form-data; boundary=xyz',
          'multipart/form-data',
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'application/octet-stream',
        ),
      )
      .map(([bytes, type]) =>
        described(
          { body: bytes, headers: { 'content-type': type }, template },
          `${type}: ${bytes.length} random bytes`,
        ),
      ),
  },
);

const endpoint = fc.constantFrom('/v1.0/generator/create', '/v2.0/generator/create-async');

/** The answer is what the interface allows; returns the job id of an accepted submission. */
async function expectAllowedAnswer(response: Response, uploaded: Uint8Array): Promise<string | null> {
  const type = response.headers.get('content-type') ?? '';
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  if (response.status === 200) {
    expect(type).toMatch(/presentationml\.presentation/);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // Compared with the template as uploaded: a damaged upload's own problems may pass through unchanged parts.
    expect(checkPackageInvariantsAgainst(bytes, uploaded)).toEqual([]);
    if (validated < 2) {
      validated += 1; // the validator takes seconds per deck: a sample of the decks made here
      await expectValidPptx(bytes, uploaded);
    }
    return null;
  }
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status === 202) {
    expect(body).toEqual({ job_id: expect.any(String), status: 'QUEUED' });
    return body.job_id as string;
  }
  if (response.status === 400) {
    expect(body).toEqual({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.any(String),
    });
    return null;
  }
  expect(response.status, JSON.stringify(body)).toBe(429); // the only other answer a valid token can get
  expect(body).toEqual({ statusCode: 429, message: expect.any(String), detail: expect.any(String) });
  return null;
}

describe('HTTP endpoints fuzz', () => {
  it(
    'every request ends in a success or a 4xx in the interface’s shapes',
    async () => {
      await fc.assert(
        fc.asyncProperty(endpoint, requestBody, async (path, { body, headers, template: uploaded }) => {
          const response = await fetch(`${server.base}${path}`, {
            method: 'POST',
            body,
            headers: { ...bearer(token), ...headers },
            signal: AbortSignal.timeout(PER_CASE_MS),
          });
          const jobId = await expectAllowedAnswer(response, uploaded);
          if (jobId) jobs.push(jobId);
        }),
        fuzzParameters(RUNS),
      );
    },
    fuzzTimeout(RUNS, PER_CASE_MS),
  );

  it(
    'every accepted job ends SUCCEEDED or FAILED with a reason',
    async () => {
      for (const jobId of jobs) {
        const { last } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED'], {
          timeoutMs: 60_000,
          intervalMs: 100,
        });
        if (last.status === 'FAILED') expect(last.error_message).not.toMatch(/internal error/);
      }
    },
    fuzzTimeout(RUNS, 1_000),
  );

  it('the server is healthy afterwards and logged no server fault', async () => {
    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    const faults = server.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(faults).toEqual([]);
  });
});
