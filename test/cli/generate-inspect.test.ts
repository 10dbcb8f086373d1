/**
 * `deckforge generate` and `deckforge inspect`, through the same entry point the bin uses; one test runs the
 * built bin as a process, which loads `generate` from its bundle.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH, REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { CORPUS_DIR, itCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { editPart } from '../support/decks/package-edit.js';
import { docxPackage } from '../support/decks/hostile-inputs.js';

const SAMPLE_PATH = new URL('../../examples/sample-template.pptx', import.meta.url).pathname;

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A module and, transitively, the modules it imports statically (`import … from "./…"`, not `import()`). */
function staticImports(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  for (const [, path] of readFileSync(file, 'utf8').matchAll(
    /^\s*(?:import|export)\s[^;]*?from\s*"(\.[^"]+)"/gms,
  ))
    staticImports(join(dirname(file), path!), seen);
  return [...seen];
}

function workDir(): string {
  return mkdtempSync(join(tmpdir(), 'deckforge-cli-'));
}

describe('deckforge generate', () => {
  it('writes the deck, named by -o, and reports warnings on stderr', async () => {
    const dir = workDir();
    const payload = join(dir, 'payload.json');
    writeFileSync(
      payload,
      JSON.stringify({
        presentation: {
          template: 'sample-template.pptx',
          slides: [
            {
              slide_index: 1,
              shapes: [
                { name: 'Title', content: 'From the CLI' },
                { name: 'Missing', content: 'x' },
              ],
            },
          ],
        },
      }),
    );
    const out = join(dir, 'out.pptx');
    const result = await cli('generate', SAMPLE_PATH, payload, '-o', out);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`wrote ${out} (1 slide,`);
    expect(result.stderr).toMatch(/warning: presentation\.slides\[0\]\.shapes\[1\].*Missing/);
    await expectValidPptx(readFileSync(out), readFileSync(SAMPLE_PATH));
  });

  it('runs as a process from the built bin, exit codes and all', async () => {
    await ensureBuilt();
    const dir = workDir();
    const payload = join(dir, 'payload.json');
    const slides = [0, 1, 0].map((slide_index, i) => ({
      slide_index,
      shapes: [{ name: 'Title', content: `Process slide ${i + 1}` }],
    }));
    const tags = [
      { key: 'company', value: 'Acme' },
      { key: 'quarter', value: 'Q3' },
    ];
    writeFileSync(
      payload,
      JSON.stringify({ presentation: { template: 'sample-template.pptx', tags, slides } }),
    );
    const out = join(dir, 'process.pptx');
    const run = promisify(execFile);
    const { stdout, stderr } = await run(process.execPath, [
      CLI_PATH,
      'generate',
      SAMPLE_PATH,
      payload,
      '-o',
      out,
    ]);
    expect(stdout).toBe(`wrote ${out} (3 slides, ${readFileSync(out).length} bytes)\n`);
    expect(stderr).toBe('');
    expect(slideTexts(readFileSync(out)).map((text) => text.match(/Process slide \d/)?.[0])).toEqual([
      'Process slide 1',
      'Process slide 2',
      'Process slide 3',
    ]);
    await expectValidPptx(readFileSync(out), readFileSync(SAMPLE_PATH));

    writeFileSync(payload, '{"presentation": ');
    const failed = await run(process.execPath, [CLI_PATH, 'generate', SAMPLE_PATH, payload]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('is not valid JSON') });
  });

  it('loads neither the engine nor the configuration on its main thread (URLs: pictures.test.ts)', async () => {
    await ensureBuilt();
    // What the bin's `generate` loads on the main thread before the generation thread starts: the bundle and
    // what it imports statically. The engine (~400 KB) and the configuration with zod (~100 ms to load) are
    // not among them: they cost ~150 ms of a 1000-slide run's ~600 ms and the thread loads its own engine.
    const bundle = join(REPO_ROOT, 'dist', 'cli', 'generate-command.bundle.js');
    const loaded = staticImports(bundle);
    const code = loaded.map((file) => readFileSync(file, 'utf8'));
    expect(code.some((text) => /from "zod"/.test(text))).toBe(false);
    expect(code.reduce((bytes, text) => bytes + text.length, 0)).toBeLessThan(100_000);
  });

  it('exits 1 with the JSON path on a payload error and on malformed JSON', async () => {
    const dir = workDir();
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ presentation: { template: 'sample-template.pptx', slides: [{ slide_index: 9 }] } }),
    );
    const result = await cli('generate', SAMPLE_PATH, bad, '-o', join(dir, 'x.pptx'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('presentation.slides[0].slide_index: slide_index 9 is out of range');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"presentation": [');
    const malformed = await cli('generate', SAMPLE_PATH, broken);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toMatch(/is not valid JSON/);
  });

  it('exits 2 with usage when arguments are missing, and names a missing file', async () => {
    expect((await cli('generate')).code).toBe(2);
    const missing = await cli('generate', '/nonexistent/t.pptx', SAMPLE_PATH.replace('.pptx', '.json'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no such file/);
  });
});

describe('deckforge inspect', () => {
  it('lists slides, shapes with ids, kinds, text and tags, and layouts', async () => {
    const result = await cli('inspect', SAMPLE_PATH);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('slide 0 (id 256, layout "Title Slide", 1.0 KB of XML)');
    expect(result.stdout).toContain('#3 "Subtitle" text placeholder=subTitle tags={{company}},{{quarter}}');
    expect(result.stdout).toContain('#4 "Contact" text tags={{contact}}');
    expect(result.stdout).toContain('1: "Title and Content"');
  });

  it('prints a name holding a line break on one line, escaped', async () => {
    const dir = workDir();
    const file = join(dir, 'two-line-name.pptx');
    const template = editPart(readFileSync(SAMPLE_PATH), 'ppt/slides/slide3.xml', (xml) =>
      xml.replace('name="Contact"', 'name="Contact&#10;line two"'),
    );
    writeFileSync(file, template);
    const result = await cli('inspect', file);
    expect(result.code).toBe(0);
    const line = result.stdout.split('\n').find((l) => l.includes('Contact'));
    expect(line).toBe('    #4 "Contact\\nline two" text tags={{contact}} "{{contact}}"');
  });

  itCorpus("describes each table's grid, header row, merges and first row", async () => {
    const result = await cli('inspect', join(CORPUS_DIR, 'pptx-automizer', 'GS_Tables_Merged.pptx'));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '#64 "Google Shape;64;p15" table 5 rows x 4 columns, merged r0c0 2x2 r2c1 3x3; ' +
        'first row: "C: 0, 0 -> Merged..." | "" | "C: 0, 2" | "C: 0, 3"',
    );
    const header = await cli('inspect', join(CORPUS_DIR, 'ShapeCrawler', 'table-case004.pptx'));
    expect(header.stdout).toContain(
      '#5 "Table 1" table placeholder=obj 6 rows x 5 columns, header row; first row: "" | "" | "" | "" | ""',
    );
  });

  it('--json prints the inspect document', async () => {
    const result = await cli('inspect', SAMPLE_PATH, '--json');
    const json = JSON.parse(result.stdout) as {
      slides: { shapes: { name: string; kind: string; group: string | null }[] }[];
      layouts: unknown[];
    };
    expect(json.slides).toHaveLength(3);
    expect(json.slides[2]!.shapes.find((s) => s.name === 'Contact')).toMatchObject({
      kind: 'text',
      group: 'Closing Group',
    });
    expect(json.layouts).toHaveLength(2);
  });

  itCorpus('describes each chart: types, series, categories, workbook', async () => {
    const result = await cli('inspect', join(CORPUS_DIR, 'Open-XML-SDK', 'Chart_2D.pptx'));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '#6 "Chart 5" chart placeholder=obj [bar (column, clustered); series "Series 1", "Series 2", "Series 3"; 4 categories; workbook embedded]',
    );
  });

  it('refuses a file that is not a presentation with exit code 1', async () => {
    const dir = workDir();
    const notPptx = join(dir, 'notes.pptx');
    writeFileSync(notPptx, 'plain text');
    const result = await cli('inspect', notPptx);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: /);
  });
});

describe('mistakes the command line names', () => {
  beforeAll(async () => ensureBuilt(), 300_000);

  function payloadIn(dir: string, presentation: object): string {
    const path = join(dir, 'payload.json');
    writeFileSync(path, JSON.stringify({ presentation }));
    return path;
  }

  it('--strict makes a warning an error: the warnings printed, no deck written, exit 1', async () => {
    const dir = workDir();
    const out = join(dir, 'out.pptx');
    const payload = payloadIn(dir, {
      template: 'sample-template.pptx',
      slides: [{ slide_index: 1, shapes: [{ name: 'Titel', content: 'Highlights' }] }],
    });
    const strict = await cli('generate', SAMPLE_PATH, payload, '-o', out, '--strict');
    expect(strict.code).toBe(1);
    expect(strict.stderr).toBe(
      'warning: presentation.slides[0].shapes[0]: slide has no shape named "Titel" (did you mean "Title"?); ' +
        'its shapes are: "Title", "Body", "Footnote"\n' +
        'error: 1 warning with --strict: no deck written\n',
    );
    expect(existsSync(out)).toBe(false);
    // Without it the deck is made (the service's lenient default) and the same warning printed.
    const lenient = await cli('generate', SAMPLE_PATH, payload, '-o', out);
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('slide has no shape named "Titel" (did you mean "Title"?)');
    await expectValidPptx(readFileSync(out), readFileSync(SAMPLE_PATH));
  });

  it('a misspelt command is named with the one it stands for', async () => {
    const { code, stderr } = await cli('generat', SAMPLE_PATH);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^deckforge: unknown command "generat" \(did you mean "generate"\?\)\n\nUsage:/);
  });

  it('serve --help points to the page that lists the settings, whose heading exists', async () => {
    const { code, stdout } = await cli('serve', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain('docs/configuration.md lists every setting and its default');
    expect(readFileSync(join(REPO_ROOT, 'docs', 'configuration.md'), 'utf8')).toMatch(/^\| `PORT` \|/m);
  });

  it('inspect lists the nodes of a SmartArt graphic, in text-pane order with their levels', async () => {
    const { code, stdout } = await cli('inspect', join(REPO_ROOT, 'examples', 'process.pptx'));
    expect(code).toBe(0);
    expect(stdout).toContain(
      '  #3 "Diagram 1" smartart\n' +
        '    node 0 (level 0) "Discover"\n    node 1 (level 0) "Design"\n' +
        '    node 2 (level 0) "Deliver"\n    node 3 (level 0) "Support"\n',
    );
  });

  it('a Word document, or an empty file, given as the template is refused naming the field and the file', async () => {
    const dir = workDir();
    writeFileSync(join(dir, 'letter.docx'), docxPackage());
    writeFileSync(join(dir, 'empty.pptx'), new Uint8Array(0));
    const word = await cli(
      'generate',
      join(dir, 'letter.docx'),
      payloadIn(dir, { template: 'letter.docx', slides: [{ slide_index: 0 }] }),
    );
    expect(word).toMatchObject({
      code: 1,
      stderr:
        'error: presentation.template: template file "letter.docx": not a PowerPoint presentation: this is a ' +
        'Word document (.docx)\n',
    });
    const empty = await cli(
      'generate',
      join(dir, 'empty.pptx'),
      payloadIn(dir, { template: 'empty.pptx', slides: [{ slide_index: 0 }] }),
    );
    expect(empty).toMatchObject({
      code: 1,
      stderr: 'error: presentation.template: template file "empty.pptx": the file is empty (0 bytes)\n',
    });
  });

  it('a locale written the POSIX way is named with its BCP 47 spelling', async () => {
    const dir = workDir();
    const payload = payloadIn(dir, {
      template: 'sample-template.pptx',
      locale: 'de_DE',
      slides: [{ slide_index: 0 }],
    });
    const { code, stderr } = await cli('generate', SAMPLE_PATH, payload, '-o', join(dir, 'out.pptx'));
    expect(code).toBe(1);
    expect(stderr).toBe(
      'error: presentation.locale: expected a BCP 47 language tag this server knows ("en-US", "de-DE", "fr-CH"), ' +
        'got "de_DE" (did you mean "de-DE"?)\n',
    );
  });
});
