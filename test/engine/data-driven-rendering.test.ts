/**
 * What a reader of the PDF sees of typed values and slide links: LibreOffice renders one deck (one soffice call),
 * pdftotext reads the formatted values back, and the link's annotation jumps to the page of the slide it names.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { renderToPdf } from '../support/readers/render.js';
import { run, SAMPLE } from '../support/decks/deck.js';

const TIMEOUT = 240_000;

/** Each page's text (pdftotext). */
function pageTexts(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-links-'));
  try {
    writeFileSync(join(dir, 'deck.pdf'), pdf);
    const result = spawnSync('pdftotext', ['-enc', 'UTF-8', 'deck.pdf', '-'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(0);
    return result.stdout.split('\f').slice(0, -1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The link annotations of the PDF: their text and the page (0-based) each jumps to. LibreOffice writes objects
 * uncompressed and the page tree as one /Kids list.
 */
function pageLinks(pdf: Uint8Array): { text: string; page: number }[] {
  const raw = Buffer.from(pdf).toString('latin1');
  const kids = /\/Type\/Pages[\s\S]*?\/Kids\[([^\]]*)\]/.exec(raw)?.[1] ?? '';
  const pages = [...kids.matchAll(/(\d+) 0 R/g)].map((m) => m[1]);
  return [...raw.matchAll(/\/Subtype\/Link[^>]*?\/Contents<FEFF([0-9A-F]*)>\/Dest\[(\d+) 0 R/g)].map((m) => ({
    text: Buffer.from(m[1]!, 'hex').swap16().toString('utf16le'),
    page: pages.indexOf(m[2]),
  }));
}

describeWithLibreOffice('typed values and slide links as rendered', () => {
  it(
    'the PDF shows the values in the locale and its link jumps to the slide the payload names',
    async () => {
      const result = run(SAMPLE, {
        locale: 'de-DE',
        slides: [
          {
            slide_index: 1,
            shapes: [
              { name: 'Title', content: { number: 1234567.891, format: '#,##0.00 [$€-407]' } },
              {
                name: 'Body',
                content: [
                  { text_run: 'Stand: ' },
                  { text_run: { date: '2026-03-05', format: 'dddd, d. mmmm yyyy' } },
                  { text_run: 'Zum Kontakt', text_properties: { hyperlink: { slide: 2 }, new_line: true } },
                ],
              },
            ],
          },
          { slide_index: 0 },
          { slide_index: 2 },
        ],
      });
      await expectValidPptx(result.bytes, SAMPLE);
      const pdf = await renderToPdf(result.bytes);
      const [first] = pageTexts(pdf);
      expect(first).toContain('1.234.567,89 €');
      expect(first).toContain('Stand: Donnerstag, 5. März 2026');
      expect(pageLinks(pdf)).toEqual([{ text: 'Zum Kontakt', page: 2 }]);
    },
    TIMEOUT,
  );
});
