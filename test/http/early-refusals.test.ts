/**
 * Requests refused before their upload is read reach every mainstream client: each client sends a
 * 2 MB template 20 times per case and must get the documented status and body every time — not EPIPE, not a
 * reset. One server for the whole file: `deckforge serve` in a process of its own, as integrations meet it
 * (in the test's own process the client's writes and the server's refusal share an event loop, which hides
 * the fault).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, createRuntime } from '../../src/composition/index.js';
import { configWith, parsePlanCatalog, type Plan } from '../../src/config/index.js';
import { editPackage } from '../support/decks/package-edit.js';
import { bearer, cliEnv, issueToken, TestClock, tempDataDir } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck } from '../support/http/payloads.js';
import { REAL_CLIENTS, type ClientAnswer, type Upload } from '../support/http/real-clients.js';
import { startServe, type ServeProcess } from '../support/servers/serve-process.js';

const MB = 1_000_000;
const TIMES = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The test template with an unreferenced, incompressible 2 MB media part: a real .pptx of 2 MB. */
const template = editPackage(templateBytes(), (files) => {
  files['ppt/media/padding.bin'] = new Uint8Array(randomBytes(2 * MB));
});

const PLANS: Plan[] = [
  { name: 'Wide', allowedSlideCount: 1_000_000, requestsPerMinute: 100_000 },
  { name: 'Spent', allowedSlideCount: 0, requestsPerMinute: 100_000 },
];
const dataDir = tempDataDir();
let serve: ServeProcess;
let valid: string;
let expired: string;
let spent: string;

/** Accounts, and a token issued a day and a minute ago (so expired now), written before the server starts. */
async function prepareAccounts() {
  const config = configWith({ dataDir, workers: 1, plans: parsePlanCatalog({ plans: PLANS }, 'test') });
  const clock = new TestClock();
  clock.advance(-(DAY_MS + 60_000));
  const runtime = await createRuntime(config, { logger: createLogger(config, { write: () => {} }), clock });
  try {
    const user = await runtime.admin.create({ email: 'wide@example.test', plan: 'Wide' });
    const broke = await runtime.admin.create({ email: 'spent@example.test', plan: 'Spent' });
    const credentials = { username: user.email, password: user.password, key: user.key };
    expired = (await runtime.service.issueToken(credentials)).accessToken;
    return [user, broke].map(({ email, password, key }) => ({ email, password, key }));
  } finally {
    await runtime.close();
  }
}

beforeAll(async () => {
  const [user, broke] = await prepareAccounts();
  serve = await startServe(dataDir, {
    DECKFORGE_PLANS: cliEnv(dataDir, PLANS).DECKFORGE_PLANS ?? '',
    // 3 MiB: two copies of the template exceed it, one fits (the other cases are refused for their own reason).
    DECKFORGE_MAX_UPLOAD_MB: '3',
    DECKFORGE_WORKERS: '1',
  });
  valid = await issueToken(serve.base, user!);
  spent = await issueToken(serve.base, broke!);
}, 120_000);
afterAll(async () => {
  await serve?.kill();
  rmSync(dataDir, { recursive: true, force: true });
});

const shapeB = (statusCode: number, message: string, detail: RegExp = /./) => ({
  statusCode,
  message,
  detail: expect.stringMatching(detail),
});

interface RefusalCase {
  path: () => string;
  token: () => string;
  files: () => Upload['files'];
  status: number;
  body: () => unknown;
}

const oneTemplate = () => [{ name: TEMPLATE_NAME, bytes: template }];

const CASES: Record<string, RefusalCase> = {
  'bad token': {
    path: () => '/v1.0/generator/create',
    token: () => 'not-a-token',
    files: oneTemplate,
    status: 401,
    body: () => shapeB(401, 'Unauthorized'),
  },
  'expired token': {
    path: () => '/v2.0/generator/create-async',
    token: () => expired,
    files: oneTemplate,
    status: 401,
    body: () => shapeB(401, 'Unauthorized', /expired/),
  },
  'over the allowance': {
    path: () => '/v1.0/generator/create',
    token: () => spent,
    files: oneTemplate,
    status: 429,
    body: () => shapeB(429, 'Too Many Requests - usage or rate limit exceeded', /monthly slide limit/),
  },
  'over the size limit': {
    path: () => '/v2.0/generator/create-async',
    token: () => valid,
    files: () => [...oneTemplate(), { name: 'copy.pptx', bytes: template }],
    status: 400,
    body: () => ({
      statusCode: 400,
      message: 'Invalid input parameters',
      details: expect.stringMatching(/upload size limit of 3145728 bytes/),
    }),
  },
  'unknown job id': {
    // No client sends a body on GET (fetch refuses to), so the upload goes to the status URL as a POST.
    path: () => `/v2.0/jobs/${randomUUID()}/status`,
    token: () => valid,
    files: oneTemplate,
    status: 404,
    body: () => shapeB(404, 'Not Found'),
  },
};

describe.each(Object.keys(REAL_CLIENTS))('%s', (clientName) => {
  const client = REAL_CLIENTS[clientName]!;
  it.each(Object.keys(CASES))(`gets the answer to each of ${TIMES} uploads: %s`, async (caseName) => {
    const refusal = CASES[caseName]!;
    const answers = await client(
      {
        url: `${serve.base}${refusal.path()}`,
        headers: bearer(refusal.token()),
        files: refusal.files(),
        jsonData: JSON.stringify(titleDeck(1)),
      },
      TIMES,
    );
    const expected: ClientAnswer = { status: refusal.status, body: refusal.body() };
    expect(answers).toEqual(Array.from({ length: TIMES }, () => expected));
  });
});
