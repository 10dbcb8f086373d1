import { describe, expect, it } from 'vitest';
import { parseXml, serializeElement } from '../xml/index.js';
import { shrinkText, shrunkSize } from './node-text-size.js';

const NS =
  'xmlns:dsp="http://schemas.microsoft.com/office/drawing/2008/diagram" ' +
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';

/** A drawn shape with `body` inside its dsp:txBody. */
const drawn = (body: string) => parseXml(`<dsp:sp ${NS}><dsp:txBody>${body}</dsp:txBody></dsp:sp>`).root;

const sizes = (xml: string): string[] =>
  [...xml.matchAll(/<a:(?:rPr|endParaRPr|defRPr)[^>]*?\bsz="(\d+)"/g)].map((m) => m[1] ?? '');

describe('node text size', () => {
  it('shrinks by the factor, rounded down to half points, not below 7 pt unless the size was smaller', () => {
    expect(shrunkSize(1800, 0.5758)).toBe(1000);
    expect(shrunkSize(2800, 0.5926)).toBe(1650);
    expect(shrunkSize(1800, 0.2)).toBe(700);
    expect(shrunkSize(600, 0.5)).toBe(600);
    expect(shrunkSize(1800, 1)).toBe(1800);
  });

  it('writes every run, line break and paragraph end the shrunk size, and the insets shrunk', () => {
    const sp = drawn(
      '<a:bodyPr lIns="91440" tIns="45720" rIns="91440" bIns="45720"><a:noAutofit/></a:bodyPr><a:lstStyle/>' +
        '<a:p><a:r><a:rPr lang="en-US" sz="2400"/><a:t>A</a:t></a:r><a:br><a:rPr sz="2400"/></a:br>' +
        '<a:r><a:rPr sz="1200"/><a:t>b</a:t></a:r><a:endParaRPr lang="en-US" sz="2400"/></a:p>',
    );
    shrinkText(sp, 0.5, 1800);
    const xml = serializeElement(sp);
    expect(sizes(xml)).toEqual(['1200', '1200', '700', '1200']);
    expect(xml).toContain('lIns="45720" tIns="22860" rIns="45720" bIns="22860"');
    expect(xml).toContain('<a:noAutofit/>');
  });

  it("gives a run without a size its list style level's size, else the deck's default, shrunk", () => {
    const sp = drawn(
      '<a:bodyPr/><a:lstStyle><a:lvl2pPr><a:defRPr sz="2000"/></a:lvl2pPr></a:lstStyle>' +
        '<a:p><a:r><a:rPr lang="en-US"/><a:t>top</a:t></a:r></a:p>' +
        '<a:p><a:pPr lvl="1"/><a:r><a:rPr lang="en-US"/><a:t>sub</a:t></a:r><a:endParaRPr lang="en-US"/></a:p>',
    );
    shrinkText(sp, 0.5, 1800);
    const xml = serializeElement(sp);
    // The list style's own size first, then the runs: 18 pt → 9 pt, 20 pt → 10 pt.
    expect(sizes(xml)).toEqual(['1000', '900', '1000', '1000']);
    expect(xml).toContain('<a:bodyPr/>');
  });

  it('leaves a shape without text, or a box that did not shrink, as it was', () => {
    const empty = drawn('<a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr sz="1800"/></a:p>');
    shrinkText(empty, 1, 1800);
    expect(sizes(serializeElement(empty))).toEqual(['1800']);
    const noText = parseXml(`<dsp:sp ${NS}/>`).root;
    shrinkText(noText, 0.5, 1800);
    expect(serializeElement(noText)).not.toContain('txBody');
  });
});
