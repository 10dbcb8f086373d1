/**
 * `deckforge generate` and `deckforge inspect` on large decks, as processes from the built bin: a
 * deck over the memory budget ends with the budget's message and exit code 1, not a V8 abort, and leaves no
 * half-written file; inspect shows which slides are heavy.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH } from '../support/servers/http-harness-paths.js';
import { everySlideChanged, HEAVY_PATH } from '../support/decks/heavy-template.js';
import { describeCorpus } from '../support/corpus/corpus.js';

const run = promisify(execFile);

describeCorpus('deckforge generate over its memory budget', () => {
  it('prints what to change and exits 1, leaving nothing behind', async () => {
    await ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-large-'));
    const payload = join(dir, 'payload.json');
    const template = HEAVY_PATH.split('/').pop() ?? '';
    writeFileSync(payload, JSON.stringify(everySlideChanged(template)));
    const failed = await run(
      process.execPath,
      [CLI_PATH, 'generate', HEAVY_PATH, payload, '-o', join(dir, 'out.pptx')],
      {
        env: { ...process.env, DECKFORGE_GENERATION_MEMORY_MB: '64' },
      },
    ).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect((failed as { stderr: string }).stderr).toBe(
      'error: the deck needs more memory than one generation may use (64 MB, DECKFORGE_GENERATION_MEMORY_MB): ' +
        'ask for fewer slides per request, or use a lighter template (`deckforge inspect` shows the XML size ' +
        'of each slide: a slide of megabytes costs far more than a plain one), or raise ' +
        'DECKFORGE_GENERATION_MEMORY_MB\n',
    );
    expect(readdirSync(dir)).toEqual(['payload.json']);
  });

  it('refuses a budget that is not a number of megabytes, naming the setting', async () => {
    await ensureBuilt();
    const failed = await run(process.execPath, [CLI_PATH, 'generate', HEAVY_PATH, 'x.json'], {
      env: { ...process.env, DECKFORGE_GENERATION_MEMORY_MB: 'lots' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(
      /DECKFORGE_GENERATION_MEMORY_MB must be a whole number/,
    );
  });
});

describeCorpus('deckforge inspect', () => {
  it('shows the XML size of each slide', async () => {
    await ensureBuilt();
    // The JSON gives every shape's text back (thousands of shapes here): more than execFile's default 1 MB.
    const big = { maxBuffer: 64 * 1024 * 1024 };
    const { stdout } = await run(process.execPath, [CLI_PATH, 'inspect', HEAVY_PATH], big);
    expect(stdout).toContain('slide 23 (id 271, layout "Title and Content", 1.6 MB of XML)');
    expect(stdout).toContain('slide 1 (id 290, layout "Blank", 5.9 KB of XML)');
    const json = JSON.parse(
      (await run(process.execPath, [CLI_PATH, 'inspect', HEAVY_PATH, '--json'], big)).stdout,
    ) as {
      slides: { xmlBytes: number }[];
    };
    expect(json.slides[23]?.xmlBytes).toBe(1_686_784);
  });
});
