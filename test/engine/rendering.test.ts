/**
 * What a person sees: LibreOffice renders the output to PDF and every filled string appears on the page of
 * the slide it was written to. (LibreOffice accepts files PowerPoint would repair, so this complements the
 * package checks rather than replacing them.)
 */
import { describe, expect, it } from 'vitest';
import { readCorpus } from '../support/corpus.js';
import { expectValidPptx } from '../support/expect-valid-pptx.js';
import { renderToPdfText } from '../support/render.js';
import { run, SAMPLE } from './deck.js';

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

  it(
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
});
