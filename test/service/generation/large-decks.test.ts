/**
 * Large decks through the service, on a small generation budget (DECKFORGE_GENERATION_MEMORY_MB=64):
 * a deck that needs more fails with a message naming the budget, synchronously and as a job, gives its slides
 * back and leaves the service healthy; 1 500 copies of the corpus's heaviest slide (1.65 MB of XML, 2.5 GB in
 * all) succeed as a job under that same budget, because the deck streams to disk as it is built.
 *
 * The 390 MB result is read back entry by entry (test/support/readers/zip-file.ts): every copy, in order, is the
 * template slide's own bytes with its own notes page; the validator judges the same deck made
 * with 2 (the first use of the slide and one copy: the two ways a slide is written here).
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import {
  copiesOfHeavySlide,
  everySlideChanged,
  HEAVY_NOTES,
  HEAVY_SLIDE,
  heavyTemplate,
} from '../../support/decks/heavy-template.js';
import { openZipFile, slidePartsInOrder } from '../../support/readers/zip-file.js';
import { deck, pathOf, startHarness, upload, waitForJob, type Harness } from '../service-harness.js';
import { describeCorpus } from '../../support/corpus/corpus.js';

const HEAVY_NAME = 'refactor.pptx';
const HEAVY = heavyTemplate();
const BUDGET_MB = 64;

const heavyUpload = (payload: unknown) => upload(payload, [{ name: HEAVY_NAME, bytes: HEAVY.slice() }]);

describeCorpus(`generation under a ${BUDGET_MB} MB budget`, () => {
  let h: Harness;
  const scratch = mkdtempSync(join(tmpdir(), 'deckforge-large-'));
  beforeAll(async () => {
    h = await startHarness({
      plans: [{ name: 'Big', allowedSlideCount: 100_000, requestsPerMinute: 1000 }],
      overrides: { generationMemoryMb: BUDGET_MB },
    });
  });
  afterAll(async () => {
    await h.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses a deck that needs more, naming the budget, gives the slides back and keeps serving', async () => {
    const user = await h.signUp();
    const refused = await h.service
      .generateNow(user.account, heavyUpload(everySlideChanged(HEAVY_NAME)))
      .catch((e) => e);
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).code).toBe('LIMIT_EXCEEDED');
    expect((refused as EngineError).message).toMatch(
      /needs more memory than one generation may use \(64 MB, DECKFORGE_GENERATION_MEMORY_MB\): ask for fewer slides per request, or use a lighter template/,
    );
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);

    const { jobId } = await h.service.submitJob(user.account, heavyUpload(everySlideChanged(HEAVY_NAME)));
    const failed = await waitForJob(h.service, user.account, jobId, 120_000);
    expect(failed.status).toBe('FAILED');
    expect(failed.errorMessage).toContain('(64 MB, DECKFORGE_GENERATION_MEMORY_MB)');
    expect(failed.errorMessage).not.toMatch(/internal error/);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);

    expect((await h.service.health()).status).toBe('ok');
    const small = await h.service.generateNow(user.account, upload(deck(3)));
    expect((await small.content.bytes()).length).toBe(small.content.byteLength);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(3);
  });

  it('makes 1 500 copies of a 1.65 MB slide as a job: every copy in order, the template slide as it is', async () => {
    const user = await h.signUp();
    const { jobId } = await h.service.submitJob(
      user.account,
      heavyUpload(copiesOfHeavySlide(HEAVY_NAME, 1500)),
    );
    const done = await waitForJob(h.service, user.account, jobId, 300_000);
    expect(done).toMatchObject({ status: 'SUCCEEDED', errorMessage: null });
    const download = await h.service.openDownload(pathOf(done.fileUrl ?? ''));
    const file = join(scratch, 'copies.pptx');
    await pipeline(download.content.stream(), createWriteStream(file));
    expect(readFileSync(file).length).toBe(download.content.byteLength);

    const template = openZipFile(writeTemplate(scratch));
    const out = openZipFile(file);
    try {
      const slide = template.entries.get(HEAVY_SLIDE)!;
      const notes = template.entries.get(HEAVY_NOTES)!;
      const slides = slidePartsInOrder(out.text);
      expect(slides).toHaveLength(1500);
      expect(new Set(slides).size).toBe(1500);
      const types = out.text('[Content_Types].xml');
      for (const name of slides) {
        // The same bytes as the template's slide: CRC and size of what the zip holds.
        expect(out.entries.get(name)).toMatchObject({ crc32: slide.crc32, uncompressedSize: 1_686_784 });
        expect(types).toContain(`PartName="/${name}"`);
        const rels = out.text(relsOf(name));
        for (const target of rels.matchAll(/Target="\.\.\/([^"]+)"/g))
          expect(out.entries.has(`ppt/${target[1]}`), `${name} → ${target[1]}`).toBe(true);
        const ownNotes = /Target="\.\.\/(notesSlides\/notesSlide\d+\.xml)"/.exec(rels)?.[1];
        expect(out.entries.get(`ppt/${ownNotes}`)?.crc32).toBe(notes.crc32);
        // …and each notes page points back at its own slide.
        expect(out.text(relsOf(`ppt/${ownNotes}`))).toContain(`Target="../slides/${name.split('/').pop()}"`);
      }
      expect((await h.service.usage(user.account)).usedSlideCount).toBe(1500);
    } finally {
      template.close();
      out.close();
    }
  });

  it('makes the same deck in small (the first use and one copy) as one the validator accepts', async () => {
    const user = await h.signUp();
    const result = await h.service.generateNow(user.account, heavyUpload(copiesOfHeavySlide(HEAVY_NAME, 2)));
    await expectValidPptx(await result.content.bytes(), HEAVY);
  });
});

function writeTemplate(dir: string): string {
  const path = join(dir, HEAVY_NAME);
  writeFileSync(path, HEAVY);
  return path;
}

function relsOf(part: string): string {
  return part.replace(/\/([^/]+)$/, '/_rels/$1.rels');
}
