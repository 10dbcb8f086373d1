/**
 * The examples of docs/payload-tables.md work: every JSON block runs against the page's `report.pptx` (the owned
 * report template, report-template.ts), gives no warning, and the deck passes expectValidPptx.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/engine/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { REPORT_TEMPLATE } from '../support/decks/report-template.js';

const PAGE = readFileSync(new URL('../../docs/payload-tables.md', import.meta.url), 'utf8');
const EXAMPLES = [...PAGE.matchAll(/```json\n([\s\S]*?)```/g)].map(
  (m) => JSON.parse(m[1]!) as Record<string, unknown>,
);

describe('docs/payload-tables.md', () => {
  it('has its examples', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(4);
  });

  it.each(EXAMPLES.map((example, i) => [i, example] as const))('example %i runs', async (_i, example) => {
    // A whole jsonData document, or one shape entry (filled on slide 0).
    const payload =
      'presentation' in example
        ? example
        : { presentation: { template: 'report.pptx', slides: [{ slide_index: 0, shapes: [example] }] } };
    const report = REPORT_TEMPLATE;
    const result = generate({ payload, files: new Map([['report.pptx', report]]) });
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, report);
  });
});
