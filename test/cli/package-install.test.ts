/**
 * The README's way to get `deckforge` outside the clone: `npm pack`, then `npm install -g` of the tarball. This
 * installs the real package (its dependencies included, better-sqlite3 compiled) into a temporary prefix and runs
 * the installed command from another directory: inspect, generate, and serve answering /healthz.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { realClockEnv } from '../support/servers/real-clock.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';

const run = promisify(execFile);
const SAMPLE = join(REPO_ROOT, 'examples', 'sample-template.pptx');
let work: string;
let deckforge: string;

beforeAll(async () => {
  await ensureBuilt();
  work = mkdtempSync(join(tmpdir(), 'deckforge-install-'));
  // dist/ is built above; packing without scripts packs exactly it.
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', work], {
    cwd: REPO_ROOT,
  });
  const tarball = join(work, packed.stdout.trim().split('\n').pop() ?? '');
  const prefix = join(work, 'prefix');
  await run(
    'npm',
    ['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball],
    // On the real clock: the registry's TLS certificate is not valid on a clock moved years ahead.
    { cwd: work, maxBuffer: 16 * 2 ** 20, env: realClockEnv() },
  );
  deckforge = join(prefix, 'bin', 'deckforge');
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed and installed deckforge command', () => {
  it('ships the built code and the docs, and no tests or corpus files', async () => {
    const listing = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT });
    const files = (JSON.parse(listing.stdout) as { files: { path: string }[] }[])[0]?.files.map(
      (f) => f.path,
    );
    expect(files).toContain('bin/deckforge.js');
    expect(files).toContain('dist/cli/main.js');
    expect(files).toContain('README.md');
    expect(files?.filter((f) => /\.test\.|(^|\/)test\/|\.pptx$|shared\//.test(f))).toEqual([]);
  });

  it('inspects and generates from another directory', async () => {
    const here = mkdtempSync(join(work, 'elsewhere-'));
    const inspected = await run(deckforge, ['inspect', SAMPLE], { cwd: here });
    expect(inspected.stdout).toContain('#2 "Title" text placeholder=ctrTitle');
    writeFileSync(
      join(here, 'payload.json'),
      JSON.stringify({
        presentation: {
          template: 'sample-template.pptx',
          slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'Installed' }] }],
        },
      }),
    );
    await run(deckforge, ['generate', SAMPLE, 'payload.json', '-o', 'out.pptx'], { cwd: here });
    const bytes = new Uint8Array(readFileSync(join(here, 'out.pptx')));
    await expectValidPptx(bytes, new Uint8Array(readFileSync(SAMPLE)));
  });

  it('serves the API on its own data directory', async () => {
    const here = mkdtempSync(join(work, 'server-'));
    const child = spawn(deckforge, ['serve'], {
      cwd: here,
      env: { ...process.env, PORT: '0', DECKFORGE_LOG_LEVEL: 'silent', DECKFORGE_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const found = /listening on (\S+)/.exec(out);
          if (found?.[1]) {
            clearTimeout(timer);
            resolve(found[1]);
          }
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      expect(out).toMatch(/First start: an account was created/);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(readdirSync(join(here, 'data'))).toContain('deckforge.sqlite');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
