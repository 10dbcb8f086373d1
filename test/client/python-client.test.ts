/**
 * The Python client (packages/python, docs/python.md) in `npm test`: installed offline into a fresh virtual
 * environment (`pip install --no-build-isolation`, with Debian's setuptools and httpx), checked by
 * `mypy --strict` for Python 3.9, its pytest suite run with the installed package against `deckforge serve` from
 * the clone, and every .pptx that suite got from the server checked as every deck of this repository is
 * (expectValidPptx: the package invariants and the Open XML SDK validator, against its templates). Without
 * Debian's Python, httpx, pytest or mypy it is reported skipped, naming what is missing; under CI=true it fails.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPptxProblems } from '../support/checks/expect-valid-pptx.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { realClockEnv } from '../support/servers/real-clock.js';

/** Debian's Python, where python3-httpx, python3-pytest and mypy install (a pyenv `python3` has none of them). */
const PYTHON = '/usr/bin/python3';
const PACKAGE = join(REPO_ROOT, 'packages', 'python');
const MYPY_CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'deckforge-python-mypy');

function missing(): string | null {
  if (!existsSync(PYTHON)) return `${PYTHON} is not installed`;
  const modules: [string, string][] = [
    ['httpx', 'python3-httpx'],
    ['pytest', 'python3-pytest'],
    ['mypy', 'mypy'],
    ['ensurepip', 'python3-venv'],
  ];
  for (const [module, debian] of modules) {
    if (spawnSync(PYTHON, ['-c', `import ${module}`], { timeout: 30_000 }).status !== 0) {
      return `${PYTHON} cannot import ${module} (Debian: ${debian})`;
    }
  }
  return null;
}

const MISSING = missing();
const describePython: (name: string, body: () => void) => void =
  MISSING === null || process.env.CI === 'true'
    ? describe
    : (name) => describe.skip(`${name} [skipped: ${MISSING}]`, () => {});

interface Ran {
  code: number;
  output: string;
}

function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** The counts of pytest's JUnit report (`<testsuite tests= failures= errors= skipped=>`). */
function junitCounts(path: string): Record<'tests' | 'failures' | 'errors' | 'skipped', number> {
  const suite = /<testsuite\b[^>]*>/.exec(readFileSync(path, 'utf8'))?.[0] ?? '';
  const count = (name: string): number => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? NaN);
  return {
    tests: count('tests'),
    failures: count('failures'),
    errors: count('errors'),
    skipped: count('skipped'),
  };
}

let work: string;
let venvPython: string;
let mypy: Promise<Ran>;

describePython('the Python client (packages/python)', () => {
  beforeAll(async () => {
    if (MISSING !== null) throw new Error(`the Python client cannot be tested: ${MISSING}`);
    await ensureBuilt();
    work = mkdtempSync(join(tmpdir(), 'deckforge-python-'));
    // Beside the install and the suite, so that its CPU overlaps their waiting on the server.
    mypy = run(PYTHON, ['-m', 'mypy', '--cache-dir', MYPY_CACHE], { cwd: PACKAGE });
  }, 300_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('installs offline into a fresh virtual environment, with its one dependency and py.typed', async () => {
    // A copy, so that the build writes nothing into the clone.
    const source = join(work, 'source');
    for (const entry of ['pyproject.toml', 'README.md', 'src']) {
      cpSync(join(PACKAGE, entry), join(source, entry), { recursive: true });
    }
    const venv = await run(PYTHON, ['-m', 'venv', '--system-site-packages', join(work, 'venv')], {
      cwd: work,
    });
    expect(venv.code, venv.output).toBe(0);
    venvPython = join(work, 'venv', 'bin', 'python');
    const install = await run(
      venvPython,
      ['-m', 'pip', 'install', '--no-build-isolation', '--no-index', '--disable-pip-version-check', source],
      { cwd: work },
    );
    expect(install.code, install.output).toBe(0);
    const shown = await run(
      venvPython,
      [
        '-c',
        'import deckforge, importlib.metadata as m, pathlib; p = pathlib.Path(deckforge.__file__).parent; ' +
          'print(p); print((p / "py.typed").exists()); print(*m.requires("deckforge"), sep="\\n")',
      ],
      { cwd: work },
    );
    expect(shown.code, shown.output).toBe(0);
    const [location, typed, ...requires] = shown.output.trim().split('\n');
    expect(location).toContain(join(work, 'venv'));
    expect(typed).toBe('True');
    // One runtime dependency; pandas only with the extra (how the lines read depends on setuptools' version).
    expect(requires.filter((r) => !r.includes('extra'))).toEqual([expect.stringMatching(/^httpx\W/)]);
    expect(requires.filter((r) => r.includes('extra'))).toEqual([
      expect.stringMatching(/^pandas\W.*extra == .pandas.$/),
    ]);
  }, 300_000);

  it('passes mypy --strict for Python 3.9 (the package and its tests)', async () => {
    const checked = await mypy;
    expect(checked.code, checked.output).toBe(0);
    expect(checked.output).toMatch(/^Success: no issues found in \d+ source files/m);
  }, 300_000);

  it('passes its pytest suite, with the installed package, against deckforge serve', async () => {
    expect(venvPython, 'the install above failed').toBeDefined();
    // On the real clock (CI runs npm test on a moved one): the suite moves its clocked server's time from the real
    // one itself (tests/support/service.py, faketime_env).
    const { PYTHONPATH: _, ...env } = realClockEnv();
    const junit = join(work, 'junit.xml');
    const suite = await run(
      venvPython,
      ['-m', 'pytest', '-q', '--junitxml', junit, '-p', 'no:cacheprovider'],
      {
        cwd: PACKAGE,
        env: { ...env, DECKFORGE_PYTHON_DECKS: join(work, 'decks'), DECKFORGE_NODE: process.execPath },
      },
    );
    expect(suite.code, suite.output).toBe(0);
    expect(suite.output).toContain(`deckforge from ${join(work, 'venv')}`);
    const counts = junitCounts(junit);
    expect(counts.failures + counts.errors, suite.output).toBe(0);
    expect(counts.tests).toBeGreaterThanOrEqual(30);
    if (process.env.CI === 'true') expect(counts.skipped, suite.output).toBe(0);
  }, 300_000);

  it('every .pptx the Python suite got passes the package invariants and the validator', async () => {
    const manifest = join(work, 'decks', 'manifest.jsonl');
    expect(existsSync(manifest), 'the pytest suite above kept no decks').toBe(true);
    const decks = readFileSync(manifest, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { deck: string; templates: string[]; test: string });
    expect(decks.length).toBeGreaterThanOrEqual(20);
    const unsound: string[] = [];
    for (const { deck, templates, test } of decks) {
      const problems = await newPptxProblems(
        new Uint8Array(readFileSync(deck)),
        templates.map((template) => new Uint8Array(readFileSync(template))),
      );
      if (problems.length > 0) unsound.push(`${test} (${deck}):\n  - ${problems.join('\n  - ')}`);
    }
    expect(unsound, unsound.join('\n')).toEqual([]);
  }, 300_000);
});
