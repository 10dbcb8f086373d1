/**
 * The conventions of docs/development.md "Conventions" that a reviewer would otherwise keep by hand, checked on
 * the clone's own files: a comment cites what a clone has — a `docs/` heading that exists, a file that exists —
 * and never an issue number (a reader of the clone cannot open it); the README's tree names every room of
 * `src/` two levels down, so that the tree a newcomer reads first is the house as it is; and a test helper
 * lives beside the tests it serves or in test/support (docs/development.md "Test helpers").
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where code (and its comments) lives; dist/ and node_modules are built or installed, not written here. */
const CODE_ROOTS = ['src', 'test', 'bench', 'scripts', 'examples', 'packages/client/src', '.ci'];
const CODE_FILE = /\.(ts|js|mjs|cjs|py|sh)$|^run$/;
const NOT_WRITTEN_HERE = new Set(['node_modules', 'dist', '.git']);
/** Also left out of the files scanned: recorded figures and code generated from the OpenAPI document. */
const NOT_SCANNED = new Set([...NOT_WRITTEN_HERE, 'results', 'generated']);

function filesUnder(folder: string, keep: (name: string) => boolean, skipped = NOT_SCANNED): string[] {
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (skipped.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (keep(entry.name)) found.push(path);
    }
  };
  visit(folder);
  return found;
}

const codeFiles = CODE_ROOTS.flatMap((root) => filesUnder(root, (name) => CODE_FILE.test(name)));
const docsPages = filesUnder('docs', (name) => name.endsWith('.md'));
/** Every path of the clone (files and folders, from its root), and every file's name. */
const clonePaths = new Set<string>();
const cloneNames = new Set<string>();
for (const file of filesUnder('.', () => true, NOT_WRITTEN_HERE)) {
  cloneNames.add(basename(file));
  for (let path = file; path !== '.'; path = dirname(path)) clonePaths.add(path);
}
const textOf = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
/** A heading or a citation of one, as a reader compares them: without code marks and outer spaces. */
const plain = (heading: string): string => heading.replace(/`/g, '').trim();
/** A citation names a heading whole, or its words before a colon, a comma or a parenthesis. */
const names = (heading: string, cited: string): boolean =>
  heading === cited || [':', ',', ' ('].some((stop) => heading.startsWith(cited + stop));

const headingsOf = new Map<string, Set<string> | null>();
function headings(page: string): Set<string> | null {
  if (!headingsOf.has(page)) {
    headingsOf.set(
      page,
      clonePaths.has(page)
        ? new Set(
            textOf(page)
              .split('\n')
              .filter((line) => /^#{1,6} /.test(line))
              .map((line) => plain(line.replace(/^#+ /, ''))),
          )
        : null,
    );
  }
  return headingsOf.get(page) ?? null;
}

/**
 * Files a comment may name that a clone does not hold: the shared corpus's own (found where the corpus is,
 * test/support/corpus/corpus.ts) and what the benchmarks write when asked (bench/support.js, `--write`).
 */
const NAMED_ELSEWHERE = [/^SOURCES\.md$/, /^manifest\.json$/, /(^|\/)out-[\w-]*(\.md)?$/];

describe('what comments cite, in the clone', () => {
  it('a docs page and heading a comment cites (the page, then the heading in quotes) exist', () => {
    const unresolved: string[] = [];
    for (const file of [...codeFiles, ...docsPages]) {
      for (const [, page = '', heading = ''] of textOf(file).matchAll(
        /\b((?:docs|bench)\/[\w./-]*\.md)\)?,? "([^"\n]+)"/g,
      )) {
        const found = headings(page);
        if (found === null) unresolved.push(`${file}: ${page} does not exist`);
        else if (![...found].some((h) => names(h, plain(heading))))
          unresolved.push(`${file}: ${page} has no heading "${heading}"`);
      }
    }
    expect(unresolved).toEqual([]);
  });

  it('a file or folder a comment names is in the clone', () => {
    const missing: string[] = [];
    for (const file of codeFiles) {
      const text = textOf(file);
      // A page by its name (a docs page, README.md, bench/README.md), wherever it is.
      for (const [, name = ''] of text.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.md)\b/g)) {
        const path = name.replace(/^\.\//, '');
        if (NAMED_ELSEWHERE.some((pattern) => pattern.test(path))) continue;
        const beside = relative(ROOT, join(ROOT, dirname(file), path));
        if (!clonePaths.has(path) && !clonePaths.has(beside) && !cloneNames.has(basename(path)))
          missing.push(`${file}: ${name}`);
      }
      // A path from the clone's root (src/…, test/…, docs/…).
      // A path from the clone's root (src/…, test/…, docs/…), or the start of some (`examples/make-*.ts`).
      for (const [, path = '', wildcard] of text.matchAll(
        /(?<![\w./-])((?:src|test|bench|scripts|docs|examples|packages)\/[\w./-]*[\w-])([*<])?/g,
      )) {
        if (NAMED_ELSEWHERE.some((pattern) => pattern.test(path))) continue;
        const found =
          wildcard !== undefined || path.endsWith('-')
            ? [...clonePaths].some((p) => p.startsWith(path))
            : clonePaths.has(path) || clonePaths.has(path.replace(/\.js$/, '.ts'));
        if (!found) missing.push(`${file}: ${path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('no code names an issue by its number (an upstream one is cited as project#N)', () => {
    const numbered = codeFiles.flatMap((file) =>
      [...textOf(file).matchAll(/\b[Ii]ssues? #?\d+\b/g)].map(([text]) => `${file}: ${text}`),
    );
    expect(numbered).toEqual([]);
  });
});

describe("the README's tree", () => {
  it('names every folder of src/ two levels down', () => {
    const readme = textOf('README.md');
    const tree = /## How it is built\s+```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(tree).toContain('src/');
    const named = new Set<string>();
    let inSrc = false;
    let first = '';
    for (const line of tree.split('\n')) {
      const indent = /^ */.exec(line)?.[0].length ?? 0;
      if (indent === 0) inSrc = line.startsWith('src/');
      if (!inSrc || indent === 0) continue;
      // The folders a line names come before its description: `pictures/ tables/ charts/   one filler per …`.
      const folders = /^((?:[\w-]+\/ ?)+)/.exec(line.trim())?.[1]?.split(' ').filter(Boolean) ?? [];
      for (const folder of folders) {
        const name = folder.replace(/\/$/, '');
        if (indent === 2) {
          first = name;
          named.add(name);
        } else if (indent === 4) named.add(`${first}/${name}`);
      }
    }
    const folders = [...clonePaths]
      .filter((path) => /^src\/[^/]+(\/[^/]+)?$/.test(path) && statSync(join(ROOT, path)).isDirectory())
      .map((path) => path.slice('src/'.length));
    expect(folders.length).toBeGreaterThan(20);
    expect(folders.filter((folder) => !named.has(folder)).sort()).toEqual([]);
  });
});

describe("where tests' helpers live", () => {
  it('a helper outside test/support serves the tests of its own room of test/ only, else it lives in test/support', () => {
    const testCode = codeFiles.filter((file) => file.startsWith('test/') && file.endsWith('.ts'));
    const helpers = testCode.filter(
      (file) => !file.endsWith('.test.ts') && !file.startsWith('test/support/') && file.split('/').length > 2,
    );
    expect(helpers.length).toBeGreaterThan(5);
    const strayed: string[] = [];
    for (const helper of helpers) {
      const room = helper.split('/').slice(0, 2).join('/');
      // Imported (`./deck.js`) or started by its path (`test/service/fixtures/job-consumer-process.ts`).
      const named = new RegExp(`[/'"]${basename(helper, '.ts').replace(/[.-]/g, '\\$&')}\\.(js|ts)['"]`);
      const users = testCode.filter((file) => file !== helper && named.test(textOf(file)));
      if (users.length === 0) strayed.push(`${helper}: used by no test`);
      for (const user of users) if (!user.startsWith(`${room}/`)) strayed.push(`${helper}: used by ${user}`);
    }
    expect(strayed).toEqual([]);
  });
});
