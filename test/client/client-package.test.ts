/**
 * The client as a package of its own (packages/client, `deckforge-client`), installed the way docs/client.md says:
 * `npm pack --workspace=deckforge-client` in the clone, `npm install` of the tarball in an empty project. The
 * project then holds that one package and nothing else, and a plain Node script using it generates a deck on a
 * real server.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

const run = promisify(execFile);
const SAMPLE = join(REPO_ROOT, 'examples', 'sample-template.pptx');
let work: string;
let project: string;
let server: RunningServer;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'deckforge-client-package-'));
  const packed = await run('npm', ['pack', '--workspace=deckforge-client', '--pack-destination', work], {
    cwd: REPO_ROOT,
  });
  const tarball = join(work, packed.stdout.trim().split('\n').pop() ?? '');
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'project', private: true, type: 'module' }),
  );
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: project });
  server = await startServer();
}, 300_000);

afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the deckforge-client package', () => {
  it('installs alone: no dependency comes with it, and it ships its build and README only', () => {
    const modules = join(project, 'node_modules');
    expect(readdirSync(modules).filter((name) => !name.startsWith('.'))).toEqual(['deckforge-client']);
    const installed = join(modules, 'deckforge-client');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(installed).sort()).toEqual(['README.md', 'dist', 'package.json']);
    expect(readdirSync(join(installed, 'dist'))).toContain('index.d.ts');
  });

  it('generates a deck on a real server from a plain Node script', async () => {
    const credentials = await server.createAccount();
    writeFileSync(
      join(project, 'generate.mjs'),
      `import { writeFile } from 'node:fs/promises';
import { DeckforgeClient } from 'deckforge-client';
const [baseUrl, email, password, key, template] = process.argv.slice(2);
const deckforge = new DeckforgeClient({ baseUrl, email, password, key });
const payload = { presentation: { template: 'sample-template.pptx',
  slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'From the package' }] }] } };
await writeFile('out.pptx', await deckforge.generate(template, payload));
`,
    );
    await run(
      process.execPath,
      ['generate.mjs', server.base, credentials.email, credentials.password, credentials.key, SAMPLE],
      { cwd: project },
    );
    const deck = new Uint8Array(readFileSync(join(project, 'out.pptx')));
    await expectValidPptx(deck, new Uint8Array(readFileSync(SAMPLE)));
    expect(slideTexts(deck)[0]).toContain('From the package');
  }, 120_000);
});
