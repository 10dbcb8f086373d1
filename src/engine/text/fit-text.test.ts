import { describe, expect, it } from 'vitest';
import type { Warning } from '../errors.js';
import { listShapes } from '../shapes/find-shape.js';
import { child, firstDescendant, parseXml, type XmlElement } from '../xml/index.js';
import { checkTextFit, estimatedTextHeight } from './fit-text.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

/** A 4" × 1" box (3 657 600 × 914 400 EMU) holding `text` at 18 pt. */
function shapeWith(text: string, bodyPr: string) {
  const root = parseXml(
    `<p:spTree ${NS}><p:sp><p:nvSpPr><p:cNvPr id="2" name="Text 1"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/>` +
      `<p:txBody>${bodyPr}<a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1800"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree>`,
  ).root;
  return listShapes(root)[0]!;
}
const BOX = { cx: 3657600, cy: 914400 };
const autofitOf = (el: XmlElement) => firstDescendant(el, 'a:normAutofit');
const path = 'presentation.slides[0].shapes[0].content';

describe('checkTextFit', () => {
  it('leaves text that fits alone and clears a stale fontScale from the template', () => {
    const shape = shapeWith(
      'Short title',
      '<a:bodyPr><a:normAutofit fontScale="62500" lnSpcReduction="20000"/></a:bodyPr>',
    );
    const warnings: Warning[] = [];
    checkTextFit(shape, BOX, warnings, path);
    expect(autofitOf(shape.element)!.attrs).toEqual({});
    expect(warnings).toEqual([]);
  });

  it('writes an integer fontScale (1 000–100 000) and lnSpcReduction when shrink-on-overflow is set and text overflows', () => {
    const shape = shapeWith('word '.repeat(60), '<a:bodyPr><a:normAutofit/></a:bodyPr>');
    const warnings: Warning[] = [];
    checkTextFit(shape, BOX, warnings, path);
    const { fontScale, lnSpcReduction } = autofitOf(shape.element)!.attrs;
    expect(fontScale).toMatch(/^\d+$/);
    expect(Number(fontScale)).toBeGreaterThanOrEqual(1000);
    expect(Number(fontScale)).toBeLessThan(100000);
    expect(lnSpcReduction).toMatch(/^(10000|20000)$/);
    expect(warnings).toEqual([]);
  });

  it('shrinks more for more text', () => {
    const scaleFor = (words: number) => {
      const shape = shapeWith('word '.repeat(words), '<a:bodyPr><a:normAutofit/></a:bodyPr>');
      checkTextFit(shape, BOX, [], path);
      return Number(autofitOf(shape.element)!.attrs['fontScale']);
    };
    expect(scaleFor(120)).toBeLessThan(scaleFor(40));
  });

  it('warns, naming the shape, when text obviously overflows a box that does not shrink text', () => {
    const shape = shapeWith('word '.repeat(80), '<a:bodyPr wrap="square"/>');
    const warnings: Warning[] = [];
    checkTextFit(shape, BOX, warnings, path);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.path).toBe(path);
    expect(warnings[0]!.message).toContain('"Text 1"');
    expect(child(child(shape.element, 'p:txBody')!, 'a:bodyPr')!.children).toEqual([]);
  });

  it('does not warn for text that fits or when the box is unknown', () => {
    const warnings: Warning[] = [];
    checkTextFit(shapeWith('A few words', '<a:bodyPr/>'), BOX, warnings, path);
    checkTextFit(shapeWith('word '.repeat(80), '<a:bodyPr/>'), null, warnings, path);
    expect(warnings).toEqual([]);
  });

  it('counts wide (East Asian) characters as wider than Latin ones', () => {
    const warnings: Warning[] = [];
    // At 18 pt in a 4" box, 60 Latin characters take two lines (fits in 700 000 EMU); 60 CJK ones take four.
    checkTextFit(shapeWith('a'.repeat(60), '<a:bodyPr/>'), { cx: 3657600, cy: 700000 }, warnings, path);
    expect(warnings).toEqual([]);
    checkTextFit(shapeWith('漢'.repeat(60), '<a:bodyPr/>'), { cx: 3657600, cy: 700000 }, warnings, path);
    expect(warnings).toHaveLength(1);
  });

  it('writes a:normAutofit onto the slide when the box inherits shrink-on-overflow from its layout', () => {
    const shape = shapeWith('word '.repeat(60), '<a:bodyPr><a:scene3d/></a:bodyPr>');
    const inherited = parseXml(`<a:bodyPr ${NS} lIns="0" rIns="0"><a:normAutofit/></a:bodyPr>`).root;
    const warnings: Warning[] = [];
    checkTextFit(shape, BOX, warnings, path, inherited);
    const bodyPr = firstDescendant(shape.element, 'a:bodyPr')!;
    expect(bodyPr.children.map((c) => (c.kind === 'element' ? c.name : c.kind))).toEqual([
      'a:normAutofit',
      'a:scene3d',
    ]);
    expect(Number(autofitOf(shape.element)!.attrs['fontScale'])).toBeLessThan(100000);
    expect(warnings).toEqual([]);
  });

  it('does not override the slide’s own choice not to autofit with the inherited one', () => {
    const shape = shapeWith('word '.repeat(80), '<a:bodyPr><a:noAutofit/></a:bodyPr>');
    const inherited = parseXml(`<a:bodyPr ${NS}><a:normAutofit/></a:bodyPr>`).root;
    const warnings: Warning[] = [];
    checkTextFit(shape, BOX, warnings, path, inherited);
    expect(autofitOf(shape.element)).toBeUndefined();
    expect(warnings).toHaveLength(1);
  });

  it("does not warn for text that needs no more room than the template's own text did", () => {
    // The template's own 80 words are estimated to overflow the box: the designer saw them fit.
    const template = shapeWith('word '.repeat(80), '<a:bodyPr wrap="square"/>');
    const templateHeight = estimatedTextHeight(template, BOX);
    expect(templateHeight).toBeGreaterThan(BOX.cy);
    const warned = (words: number): Warning[] => {
      const warnings: Warning[] = [];
      checkTextFit(
        shapeWith('word '.repeat(words), '<a:bodyPr wrap="square"/>'),
        BOX,
        warnings,
        path,
        null,
        templateHeight,
      );
      return warnings;
    };
    expect(warned(80)).toEqual([]);
    expect(warned(60)).toEqual([]);
    expect(warned(200)).toHaveLength(1);
    // Shrink-on-overflow: the scale is still written, the warning follows the same rule.
    const shrinking = shapeWith('word '.repeat(2000), '<a:bodyPr><a:normAutofit/></a:bodyPr>');
    const ownHeight = estimatedTextHeight(shrinking, BOX);
    const warnings: Warning[] = [];
    checkTextFit(shrinking, BOX, warnings, path, null, ownHeight);
    expect(autofitOf(shrinking.element)!.attrs['fontScale']).toBe('25000');
    expect(warnings).toEqual([]);
    checkTextFit(shrinking, BOX, warnings, path);
    expect(warnings).toHaveLength(1);
  });

  it('has no estimate without a box or a text body', () => {
    expect(estimatedTextHeight(shapeWith('x', '<a:bodyPr/>'), null)).toBeNull();
  });
});
