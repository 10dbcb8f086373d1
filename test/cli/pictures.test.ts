/**
 * Pictures from the command line: image files given to `deckforge generate` (converted when their format needs
 * it, as in the service), picture URLs fetched through the same guard, and `deckforge inspect` reporting each
 * picture's frame in pixels and each picture placeholder. `generate` runs as the built bin, whose bundle loads
 * the configuration and the URL guard from chunks of their own only when a payload names a URL.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { CLI_PATH } from '../support/servers/http-harness-paths.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplatePath } from '../support/decks/layouts-template.js';
import { bmp, png, BLUE } from '../support/decks/test-images.js';
import { DeckReader } from '../support/readers/picture-reading.js';

/** Slide 9 has the pictures "Picture 10" and "Picture 11"; slide 8 an empty picture placeholder. */
const TEMPLATE = layoutsTemplatePath();

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** `deckforge generate` as the built bin, with `env` added (private URLs refused unless it allows them). */
async function generateProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  await ensureBuilt();
  return promisify(execFile)(process.execPath, [CLI_PATH, 'generate', ...args], {
    env: { ...process.env, DECKFORGE_ALLOW_PRIVATE_URLS: 'false', ...env },
  }).then(
    ({ stderr }) => ({ code: 0, stderr }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );
}

describe('deckforge generate with pictures', () => {
  it('takes image files from the command line and picture URLs, converting a BMP to PNG', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deckforge-cli-pictures-'));
    const logo = await png(200, 100, BLUE);
    let hits = 0;
    const server = createServer((_request, response) => {
      hits += 1;
      response.writeHead(200).end(logo);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/logo.png`;
    try {
      writeFileSync(join(dir, 'photo.bmp'), bmp(120, 60));
      writeFileSync(
        join(dir, 'payload.json'),
        JSON.stringify({
          presentation: {
            template: 'layouts.pptx',
            slides: [0, 1].map(() => ({
              slide_index: 9,
              shapes: [
                { name: 'Picture 10', filename: 'photo.bmp', fit: 'cover' },
                { name: 'Picture 11', content: url },
              ],
            })),
          },
        }),
      );
      const out = join(dir, 'out.pptx');
      const result = await generateProcess(
        [TEMPLATE, join(dir, 'photo.bmp'), join(dir, 'payload.json'), '-o', out, '-q'],
        { DECKFORGE_ALLOW_PRIVATE_URLS: 'true' },
      );
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(hits).toBe(1);
      const reader = new DeckReader(readFileSync(out));
      const slide = reader.slideParts()[1]!;
      expect(reader.picture(slide, 'Picture 11').raster).toEqual(logo);
      const converted = reader.picture(slide, 'Picture 10').raster!;
      expect(Buffer.from(converted.subarray(1, 4)).toString('latin1')).toBe('PNG');
      await expectValidPptx(readFileSync(out), readFileSync(TEMPLATE));

      // Without the allowance, the same URL is refused, naming the shape; exit 1.
      const refused = await generateProcess([
        TEMPLATE,
        join(dir, 'photo.bmp'),
        join(dir, 'payload.json'),
        '-o',
        out,
      ]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^error: presentation\.slides\[0\]\.shapes\[1\]\.content: picture URL http:\/\/127\.0\.0\.1:\d+\/logo\.png is refused/,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('deckforge inspect for pictures', () => {
  it('reports each picture frame in pixels at 96 dpi with its aspect, and the picture placeholders', async () => {
    const text = await cli('inspect', TEMPLATE);
    // "Picture 11" is 1828800 × 914400 EMU: 192 × 96 px at 9525 EMU per pixel.
    expect(text.stdout).toMatch(/"Picture 11" picture frame=192x96px \(aspect 2\)/);
    // The placeholder on slide 8 has no frame of its own: it shows its layout's, 5486400 × 4114800 EMU.
    expect(text.stdout).toMatch(
      /"Picture Placeholder 4" picture placeholder=pic frame=576x432px \(aspect 1\.333\)/,
    );
    expect(text.stdout).toMatch(/^ {4}picture placeholder #\d+ ".*" \w+ placeholder=pic frame=\d+x\d+px/m);
    const json = JSON.parse((await cli('inspect', TEMPLATE, '--json')).stdout) as {
      slides: { shapes: { name: string; frame?: unknown }[] }[];
    };
    const shape = json.slides[9]!.shapes.find((s) => s.name === 'Picture 11');
    expect(shape?.frame).toEqual({ widthPx: 192, heightPx: 96, aspectRatio: 2 });
  });
});
