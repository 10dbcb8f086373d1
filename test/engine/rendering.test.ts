/**
 * What a person sees: LibreOffice renders the output to PDF and every filled string appears on the page of
 * the slide it was written to. (LibreOffice accepts files PowerPoint would repair, so this complements the
 * package checks rather than replacing them.)
 */
import { describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { renderToPdfText } from '../support/readers/render.js';
import { parts, run, SAMPLE } from '../support/decks/deck.js';

const TIMEOUT = 180_000;

describe('rendering', () => {
  it(
    'the sample template: filled text, tags and bullets land on the right pages',
    async () => {
      const result = run(SAMPLE, {
        tags: [
          { key: 'company', value: 'Globex' },
          { key: 'quarter', value: 'Q4 2026' },
          { key: 'contact', value: 'team@globex.test' },
        ],
        slides: [
          { slide_index: 2 },
          {
            slide_index: 1,
            shapes: [
              { name: 'Title', content: 'Revenue' },
              { name: 'Body', content: 'Grew 12%\nChurn fell' },
            ],
          },
          { slide_index: 0, shapes: [{ name: 'Title', content: 'Annual report' }] },
          {
            slide_index: 1,
            shapes: [
              { name: 'Title', content: 'Costs' },
              { name: 'Footnote', remove: true },
            ],
          },
        ],
      });
      await expectValidPptx(result.bytes, SAMPLE);
      const pages = await renderToPdfText(result.bytes);
      expect(pages).toHaveLength(4);
      expect(pages[0]).toContain('team@globex.test');
      expect(pages[1]).toMatch(/Revenue[\s\S]*Grew 12%[\s\S]*Churn fell/);
      expect(pages[1]).toContain('Source: internal figures');
      expect(pages[2]).toContain('Annual report');
      expect(pages[2]).toContain('Globex · Q4 2026');
      expect(pages[3]).toContain('Costs');
      expect(pages[3]).not.toContain('Source: internal figures');
    },
    TIMEOUT,
  );

  itCorpus(
    'a real deck reordered and cloned: each clone shows its own text',
    async () => {
      const template = readCorpus('poi/layouts.pptx');
      const result = run(template, {
        slides: [
          { slide_index: 1, shapes: [{ name: 'Title 1', content: 'First clone' }] },
          {
            slide_index: 0,
            shapes: [
              { name: 'Title 1', content: 'Cover page' },
              { name: 'Subtitle 2', content: 'Subtitle text' },
            ],
          },
          {
            slide_index: 1,
            shapes: [
              { name: 'Title 1', content: 'Second clone' },
              { name: 'Content Placeholder 2', content: 'Only line' },
            ],
          },
        ],
      });
      await expectValidPptx(result.bytes, template);
      const pages = await renderToPdfText(result.bytes);
      expect(pages).toHaveLength(3);
      expect(pages[0]).toContain('First clone');
      expect(pages[1]).toMatch(/Cover page[\s\S]*Subtitle text/);
      expect(pages[2]).toMatch(/Second clone[\s\S]*Only line/);
      expect(pages[2]).not.toContain('Level 2');
    },
    TIMEOUT,
  );

  itCorpus(
    "keeps the template's application version, so Office 2007 charts draw as their author saw them",
    async () => {
      // AppVersion 12.0000: LibreOffice reads omitted chart settings as Office 2007 meant them. Written as 16.0000,
      // the same charts draw every data label as "Series1; category; value" (checked with the rewrite in place).
      const template = readCorpus('poi/aascu.org_workarea_downloadasset.aspx_id=5864.pptx');
      const slides = [{ slide_index: 4 }, { slide_index: 7 }, { slide_index: 15 }];
      const kept = run(template, { slides });
      expect(parts(kept.bytes).get('docProps/app.xml')).toContain('<AppVersion>12.0000</AppVersion>');
      await expectValidPptx(kept.bytes, template);
      const pages = await renderToPdfText(kept.bytes);
      expect(pages).toHaveLength(3);
      for (const page of pages) expect(page).not.toContain('Series1;');
      expect(pages[1]).toContain('Source: Anthony Carnevale');

      const asked = run(template, { export_version: 'Pptx2013', slides });
      expect(parts(asked.bytes).get('docProps/app.xml')).toContain('<AppVersion>15.0000</AppVersion>');
    },
    TIMEOUT,
  );
});
