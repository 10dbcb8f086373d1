/**
 * The client's payload types are generated from the engine's JSON Schema (scripts/generate-client-types.ts, run
 * by `npm run build`): the committed file must be exactly what the generator makes from today's schema, and a
 * caller's misspelt or mistyped field must be a compile error while a payload the engine accepts compiles. The
 * client itself compiles without Node's types and bundles for a browser.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_TYPES_PATH, clientTypesSource } from '../../scripts/generate-client-types.js';
import { parsePayload } from '../../src/engine/index.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';

const run = promisify(execFile);
const TSC = join(REPO_ROOT, 'node_modules', '.bin', 'tsc');
let work: string;

beforeAll(async () => {
  await ensureBuilt();
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  // Inside the repository, so `deckforge/client` and `deckforge-client` resolve as they would in a user's project.
  work = mkdtempSync(join(REPO_ROOT, '.tmp', 'client-types-'));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** tsc's diagnostics for `files` (name → source) under strict settings; '' when they compile. */
async function compile(
  files: Record<string, string>,
  options: Record<string, unknown> = {},
  include = ['*.ts'],
): Promise<string> {
  const dir = mkdtempSync(join(work, 'case-'));
  for (const [name, source] of Object.entries(files)) writeFileSync(join(dir, name), source);
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    types: [],
    skipLibCheck: false,
    ...options,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include }));
  const result = await run(TSC, ['-p', dir]).catch((e: { stdout: string }) => e);
  return result.stdout.replaceAll(dir, '<case>');
}

// Accepted by the engine (checked below) and by the types: every shape kind, aliases, units, nulls.
const accepted = {
  presentation: {
    template: 'template.pptx',
    export_version: 'Pptx2019',
    resultFileName: 'Review',
    tags: [{ key: 'name', value: 'Ada' }],
    slides: [
      {
        type: 'slide',
        slide_index: 0,
        notes: 'Speaker notes',
        shapes: [
          { name: 'Title', content: 'Hello', settings: { left: 1, top: 2, unit: 'cm' } },
          { shapeId: 4, text: [{ text_run: 'a', text_properties: { font_bold: true } }] },
          { name: 'Table', data_cells: [['a', 1, null]] },
          { name: 'Chart', content: { categories: ['a'], series: [{ name: 'S', values: [1] }] } },
          { name: 'Logo', filename: 'logo.png', is_hidden: null },
        ],
      },
    ],
  },
};

describe('generated client types', () => {
  it('are exactly what the generator makes from the engine schema today', async () => {
    expect(readFileSync(CLIENT_TYPES_PATH, 'utf8')).toBe(await clientTypesSource());
  }, 60_000);

  it('accept what the engine accepts and refuse a misspelt or mistyped field at compile time', async () => {
    expect(() => parsePayload(accepted)).not.toThrow();
    const source = `import type { JsonData } from 'deckforge/client';
export const ok: JsonData = ${JSON.stringify(accepted)};
export const bare: JsonData = ${JSON.stringify(accepted.presentation)};
// @ts-expect-error the misspelt "tempalte"
export const misspelt: JsonData = { presentation: { tempalte: 't.pptx', slides: [] } };
export const shapeField: JsonData = {
  // @ts-expect-error "contnet" is no shape field
  presentation: { template: 't.pptx', slides: [{ slide_index: 0, shapes: [{ name: 'A', contnet: 'x' }] }] },
};
export const mistyped: JsonData = {
  // @ts-expect-error slide_index is a number
  presentation: { template: 't.pptx', slides: [{ slide_index: 'first' }] },
};
// @ts-expect-error slides is required
export const noSlides: JsonData = { presentation: { template: 't.pptx' } };
`;
    expect(await compile({ 'payload.ts': source })).toBe('');
  }, 120_000);

  it('type a whole client session, and catch a misspelt option', async () => {
    const source = `import { DeckforgeClient, DeckforgeError, verifyWebhook, type JobStatus } from 'deckforge/client';
export async function session(): Promise<JobStatus> {
  const client = new DeckforgeClient({ baseUrl: 'http://x', email: 'a@b.c', password: 'p', key: 'k' });
  const id = await client.submit(new Uint8Array(), { presentation: { template: 't.pptx', slides: [] } });
  const done = await client.waitForJob(id, { timeoutMs: 1000, onStatus: (s) => s.status });
  const event = await verifyWebhook('{}', 't=1,v1=00', 'secret', 300);
  if (event.status === 'FAILED' && done.webhook?.state === 'DELIVERED') throw new DeckforgeError(0, '', [], null);
  // @ts-expect-error "timeoutMS" is not an option
  await client.waitForJob(id, { timeoutMS: 1000 });
  return done;
}
`;
    expect(await compile({ 'session.ts': source })).toBe('');
  }, 120_000);
});

describe('the documented examples', () => {
  it("docs/client.md's complete example and the README's lines compile against the package", async () => {
    const guide = readFileSync(join(REPO_ROOT, 'docs', 'client.md'), 'utf8');
    const example = /## A complete example\n+```ts\n([\s\S]*?)```/.exec(guide)?.[1];
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const lines = /## From TypeScript or JavaScript[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example && lines).toBeTruthy();
    const files = {
      'example.ts': example ?? '',
      // The README leaves out where the credentials come from.
      'readme.ts': `declare const email: string, password: string, key: string;\n${lines ?? ''}export {};\n`,
    };
    expect(await compile(files, { types: ['node'], lib: ['es2022'] })).toBe('');
  }, 120_000);
});

describe('the client in a browser', () => {
  it('compiles with the DOM library and without Node types', async () => {
    const out = await compile({}, { rootDir: REPO_ROOT, skipLibCheck: true }, [
      join(REPO_ROOT, 'packages', 'client', 'src', 'index.ts'),
    ]);
    expect(out).toBe('');
  }, 120_000);

  it('bundles for the browser platform with no Node module inside', async () => {
    const result = await build({
      entryPoints: [join(REPO_ROOT, 'dist', 'client', 'index.js')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).toMatch(/DeckforgeClient = class|class DeckforgeClient/);
    expect(code).not.toMatch(/from ["']node:|require\(["']node:/);
  });
});
