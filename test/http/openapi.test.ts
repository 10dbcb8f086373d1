/**
 * /openapi.json is something users generate clients from: two independent validators accept it, every operation
 * has an operationId, and a TypeScript client generated from it (@hey-api/openapi-ts) compiles under strict
 * settings and talks to the running server: token, usage, a synchronous generation, a job's status.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@hey-api/openapi-ts';
import { validate as readmeValidate } from '@readme/openapi-parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { REPO_ROOT, templateBytes } from '../support/servers/http-harness-paths.js';
import { titleDeck } from '../support/http/payloads.js';
import { hostTemplate, type TemplateHost } from '../support/servers/template-host.js';

const run = promisify(execFile);
type Operation = { operationId?: string };
type Document = { servers?: unknown[]; paths: Record<string, Record<string, Operation>> };

let server: RunningServer;
let host: TemplateHost;
let document: Document;
// Inside the repository, so the generated code resolves Node's types from its node_modules.
const generated = mkdtempSync(join(REPO_ROOT, 'node_modules', '.deckforge-openapi-client-'));

beforeAll(async () => {
  server = await startServer({ overrides: { allowPrivateUrls: true } });
  host = await hostTemplate();
  document = (await (await fetch(`${server.base}/openapi.json`)).json()) as Document;
});
afterAll(async () => {
  await server.close();
  await host.close();
  rmSync(generated, { recursive: true, force: true });
});

describe('/openapi.json', () => {
  it('passes @readme/openapi-parser and @seriousme/openapi-schema-validator', async () => {
    const readme = await readmeValidate(structuredClone(document) as never);
    expect(readme).toMatchObject({ valid: true, warnings: [] });
    const validator = new Validator();
    expect(await validator.validate(structuredClone(document) as never)).toEqual({ valid: true });
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('names every operation once and says where the API is served', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((o) => o.operationId),
    );
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.servers).toEqual([{ url: '/', description: 'This Deckforge server' }]);
  });

  it('generates a TypeScript client that compiles and calls the running server', async () => {
    const output = join(generated, 'client');
    await createClient({
      input: structuredClone(document) as never,
      output,
      plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript'],
      logs: { level: 'silent' },
    });
    // What a user writes against the generated SDK; compiled with the client under strict settings.
    writeFileSync(
      join(generated, 'use-client.ts'),
      `import { createClient, createConfig } from './client/client/index.js';
import { createToken, generatePresentation, getJobStatus, getUsage, submitGenerationJob } from './client/sdk.gen.js';

export async function session(baseUrl: string, login: { username: string; password: string; key: string },
    jsonData: unknown) {
  const anonymous = createClient(createConfig({ baseUrl }));
  const token = await createToken({ client: anonymous, body: login, throwOnError: true });
  const accessToken = token.data.Result?.Access_Token ?? '';
  const client = createClient(createConfig({ baseUrl, auth: accessToken }));
  const usage = await getUsage({ client, throwOnError: true });
  const deck = await generatePresentation({ client, body: { jsonData }, parseAs: 'arrayBuffer' });
  const job = await submitGenerationJob({ client, body: { jsonData }, throwOnError: true });
  const status = await getJobStatus({ client, path: { jobId: job.data.job_id ?? '' }, throwOnError: true });
  return { plan: usage.data.result?.plan, deck: deck.data, deckStatus: deck.response.status, job: status.data.status };
}
`,
    );
    writeFileSync(
      join(generated, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          module: 'nodenext',
          moduleResolution: 'nodenext',
          lib: ['es2022', 'dom'],
          types: [],
          skipLibCheck: true,
        },
        include: ['**/*.ts'],
      }),
    );
    const tsc = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
    const compiled = await run(tsc, ['-p', generated]).catch((e: { stdout: string }) => e);
    expect(compiled.stdout.replaceAll(generated, '<generated>')).toBe('');

    const { session } = (await import(join(generated, 'use-client.ts'))) as {
      session: (
        ...args: unknown[]
      ) => Promise<{ plan: string; deck: ArrayBuffer; deckStatus: number; job: string }>;
    };
    const account = await server.createAccount();
    const result = await session(
      server.base,
      { username: account.email, password: account.password, key: account.key },
      titleDeck(2, { template: host.url }), // the JSON body: the template by link
    );
    expect(result.plan).toBe('Free');
    expect(result.deckStatus).toBe(200);
    expect(['QUEUED', 'PROCESSING', 'SUCCEEDED']).toContain(result.job);
    await expectValidPptx(new Uint8Array(result.deck), templateBytes());
  });
});

describe('/docs and its guides', () => {
  it('lists the guides of docs/ and serves each as a page, links between them kept', async () => {
    const index = await (await fetch(`${server.base}/docs`)).text();
    for (const name of ['payload', 'http-api', 'configuration', 'operations', 'previews'])
      expect(index).toContain(`<a href="/docs/${name}">`);
    const response = await fetch(`${server.base}/docs/payload`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('<h1>The <code>jsonData</code> payload</h1>');
    expect(page).toContain('<a href="/docs/payload-tables">tables</a>');
    expect(page).not.toMatch(/<script|<link[^>]+href="https?:|src="https?:|url\(https?:/i);
    expect(page).not.toContain('../shared');
  });

  it('answers an unknown guide with 404 shape B', async () => {
    const response = await fetch(`${server.base}/docs/no-such-guide`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, message: 'Not Found' });
  });

  it('points readers of the OpenAPI document at the guides', () => {
    const info = (document as unknown as { info: { description: string } }).info;
    expect(info.description).toContain('/docs/payload');
    expect(info.description).toContain('/docs/previews');
  });
});
