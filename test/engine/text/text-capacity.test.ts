/**
 * The text capacity inspect gives each text shape (text/text-capacity.ts, docs/mcp.md "describe_template") is
 * worked out with the overflow warning's own estimate: a text written to the capacity, line for line, gets no
 * overflow warning, and a text well past it does, on every text shape of the templates in examples/.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generate, inspect, type InspectedShape } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';

const EXAMPLES = ['sample-template.pptx', 'report.pptx', 'brand.pptx', 'process.pptx'];
const OVERFLOW = /overflows its box/;

function textAtCapacity(capacity: NonNullable<InspectedShape['capacity']>): string {
  // Words of four letters and a space: every line holds exactly charsPerLine characters.
  const line = 'abcd '.repeat(Math.ceil(capacity.charsPerLine / 5)).slice(0, capacity.charsPerLine);
  return Array.from({ length: capacity.lines }, () => line).join('\n');
}

function fillEach(template: Uint8Array, text: (capacity: NonNullable<InspectedShape['capacity']>) => string) {
  const slides = inspect(template).slides.map((slide) => ({
    slide_index: slide.index,
    shapes: slide.shapes
      .filter((shape) => shape.kind === 'text' && shape.capacity && shape.capacity.lines > 0)
      .map((shape) => ({ name: shape.name, content: text(shape.capacity!) })),
  }));
  const files = new Map([['template.pptx', template]]);
  const result = generate({ payload: { presentation: { template: 'template.pptx', slides } }, files });
  const filled = slides.flatMap((slide, s) => slide.shapes.map((shape, k) => ({ s, k, name: shape.name })));
  return { result, filled };
}

describe('text capacity', () => {
  for (const name of EXAMPLES) {
    const template = new Uint8Array(readFileSync(new URL(`../../../examples/${name}`, import.meta.url)));

    it(`${name}: text written to each shape's capacity gets no overflow warning`, async () => {
      const { result, filled } = fillEach(template, textAtCapacity);
      expect(filled.length).toBeGreaterThan(0);
      expect(result.warnings.filter((w) => OVERFLOW.test(w.message))).toEqual([]);
      await expectValidPptx(result.bytes, template);
    });

    it(`${name}: text four times the capacity and more gets one for each shape that does not shrink text`, async () => {
      const { result, filled } = fillEach(template, (capacity) =>
        [
          textAtCapacity(capacity),
          textAtCapacity(capacity),
          textAtCapacity(capacity),
          textAtCapacity(capacity),
          'x'.repeat(capacity.chars * 40),
        ].join('\n'),
      );
      const warned = new Set(
        result.warnings
          .filter((w) => OVERFLOW.test(w.message))
          .map((w) => w.message.match(/shape "([^"]+)"/)?.[1]),
      );
      // Shrink-on-overflow boxes warn only when even 25 % does not fit, which forty times the capacity does not.
      expect([...filled.map((f) => f.name)].filter((n) => !warned.has(n))).toEqual([]);
      await expectValidPptx(result.bytes, template);
    });
  }
});
