import { describe, expect, it } from 'vitest';
import type { Warning } from '../errors.js';
import type { Hyperlink, Paragraph, RunProps, TextContent } from '../payload/model.js';
import {
  child,
  childElements,
  parseXml,
  serializeElement,
  textContent,
  type XmlElement,
} from '../xml/index.js';
import { fillText, textContentFromString } from './fill-text.js';
import { PARAGRAPH_PROPERTIES_ORDER } from './paragraph-properties.js';
import { RUN_PROPERTIES_ORDER } from './run-properties.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';

function body(inner: string): XmlElement {
  return parseXml(`<p:txBody ${NS}>${inner}</p:txBody>`).root;
}

/** A title-and-bullets body: paragraph 0 bold 24 pt, paragraph 1 a level-1 bullet in red 18 pt. */
const TEMPLATE =
  '<a:bodyPr wrap="square"/><a:lstStyle/>' +
  '<a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="2400" b="1" err="1" dirty="0"/><a:t>Heading</a:t></a:r>' +
  '<a:r><a:rPr lang="en-US" sz="1000"/><a:t> small</a:t></a:r><a:endParaRPr lang="en-US" sz="2400" b="1" dirty="0"/></a:p>' +
  '<a:p><a:pPr marL="342900" lvl="1" indent="-342900"><a:buFont typeface="Arial"/><a:buChar char="•"/></a:pPr>' +
  '<a:r><a:rPr lang="en-US" sz="1800"><a:solidFill><a:srgbClr val="FF0000"/></a:solidFill><a:latin typeface="Georgia"/></a:rPr>' +
  '<a:t>Bullet</a:t></a:r></a:p>';

const runs = (...items: { text: string; props?: RunProps; newParagraph?: boolean }[]): TextContent => {
  const paragraphs: Paragraph[] = [{ props: {}, runs: [] }];
  for (const item of items) {
    if (item.newParagraph) paragraphs.push({ props: {}, runs: [] });
    paragraphs[paragraphs.length - 1]!.runs.push({ text: item.text, props: item.props ?? {} });
  }
  return { kind: 'text', fromRuns: true, paragraphs };
};

function fill(txBody: XmlElement, content: TextContent | string, links: Hyperlink[] = []): Warning[] {
  const warnings: Warning[] = [];
  const value = typeof content === 'string' ? textContentFromString(content) : content;
  fillText(txBody, value, {
    path: 'presentation.slides[0].shapes[0].content',
    addHyperlink: (url) => {
      links.push(url);
      return `rId${links.length + 10}`;
    },
    warnings,
  });
  return warnings;
}

const paragraphs = (txBody: XmlElement) => childElements(txBody, 'a:p');
const runsOf = (p: XmlElement) => childElements(p, 'a:r');
const rPrOf = (run: XmlElement) => child(run, 'a:rPr')!;

/** Child names must follow the XSD sequence: each one's rank at least the previous one's. */
function expectSchemaOrder(el: XmlElement, order: readonly string[]): void {
  const ranks = childElements(el).map((c) => order.indexOf(c.name));
  expect(ranks.every((r) => r >= 0)).toBe(true);
  expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  expect(new Set(childElements(el).map((c) => c.name)).size).toBe(childElements(el).length);
}

describe('fillText with a string', () => {
  it('replaces all text, one paragraph per line, paragraph i formatted like template paragraph i', () => {
    const txBody = body(TEMPLATE);
    fill(txBody, 'Quarterly report\nRevenue up\nCosts down');
    const ps = paragraphs(txBody);
    expect(ps.map((p) => textContent(p))).toEqual(['Quarterly report', 'Revenue up', 'Costs down']);
    // Paragraph 0: the template's first paragraph's pPr and first-run rPr (bold 24 pt), not the 10 pt run.
    expect(child(ps[0]!, 'a:pPr')!.attrs['algn']).toBe('ctr');
    expect(runsOf(ps[0]!)).toHaveLength(1);
    expect(rPrOf(runsOf(ps[0]!)[0]!).attrs).toEqual({ lang: 'en-US', sz: '2400', b: '1' });
    // Paragraphs 1 and 2 (beyond the template): the last template paragraph's bullet and red Georgia.
    for (const p of ps.slice(1)) {
      const pPr = child(p, 'a:pPr')!;
      expect(pPr.attrs).toEqual({ marL: '342900', lvl: '1', indent: '-342900' });
      expect(child(pPr, 'a:buChar')!.attrs['char']).toBe('•');
      const rPr = rPrOf(runsOf(p)[0]!);
      expect(rPr.attrs['sz']).toBe('1800');
      expect(serializeElement(rPr)).toContain('<a:srgbClr val="FF0000"/>');
      expect(child(rPr, 'a:latin')!.attrs['typeface']).toBe('Georgia');
    }
  });

  it('drops err/dirty from rewritten runs and keeps endParaRPr last', () => {
    const txBody = body(TEMPLATE);
    fill(txBody, 'One');
    const p = paragraphs(txBody)[0]!;
    expect(serializeElement(txBody)).not.toMatch(/\b(err|dirty)=/);
    expect(childElements(p).map((e) => e.name)).toEqual(['a:pPr', 'a:r', 'a:endParaRPr']);
  });

  it('empties the shape with "" but keeps one paragraph with the template’s pPr and endParaRPr', () => {
    const txBody = body(TEMPLATE);
    fill(txBody, '');
    const ps = paragraphs(txBody);
    expect(ps).toHaveLength(1);
    expect(childElements(ps[0]!).map((e) => e.name)).toEqual(['a:pPr', 'a:endParaRPr']);
    expect(child(ps[0]!, 'a:endParaRPr')!.attrs).toEqual({ lang: 'en-US', sz: '2400', b: '1' });
    expect(child(txBody, 'a:bodyPr')!.attrs['wrap']).toBe('square');
  });

  it('keeps formatting when emptied through a paragraph holding one empty run (the payload’s form of "")', () => {
    const txBody = body(
      '<a:bodyPr/><a:p><a:r><a:rPr lang="en-US" sz="3200" i="1"/><a:t>old</a:t></a:r></a:p>',
    );
    fill(txBody, {
      kind: 'text',
      fromRuns: false,
      paragraphs: [{ props: {}, runs: [{ text: '', props: {} }] }],
    });
    const p = paragraphs(txBody)[0]!;
    expect(childElements(p).map((e) => e.name)).toEqual(['a:endParaRPr']);
    expect(child(p, 'a:endParaRPr')!.attrs).toEqual({ lang: 'en-US', sz: '3200', i: '1' });
  });

  it('keeps the formatting of a paragraph that only has endParaRPr when filling it', () => {
    const txBody = body('<a:bodyPr/><a:p><a:endParaRPr lang="de-DE" sz="1400" b="1"/></a:p>');
    fill(txBody, 'Hallo');
    const run = runsOf(paragraphs(txBody)[0]!)[0]!;
    expect(rPrOf(run).attrs).toEqual({ lang: 'de-DE', sz: '1400', b: '1' });
  });

  it('maps \\v to a:br, treats \\r\\n as a paragraph break and strips XML-illegal characters with a warning', () => {
    const txBody = body(TEMPLATE);
    const warnings = fill(txBody, 'line one\vline two\r\nnext\u0007 para\u0000');
    const ps = paragraphs(txBody);
    expect(ps).toHaveLength(2);
    expect(childElements(ps[0]!).map((e) => e.name)).toEqual(['a:pPr', 'a:r', 'a:br', 'a:r', 'a:endParaRPr']);
    expect(child(childElements(ps[0]!, 'a:br')[0]!, 'a:rPr')!.attrs['sz']).toBe('2400');
    expect(textContent(ps[1]!)).toBe('next para');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('2 control character');
    // eslint-disable-next-line no-control-regex -- asserting that control characters are gone
    expect(serializeElement(txBody)).not.toMatch(/[\u0000-\u0008\u000b]/);
  });

  it('gives a body without paragraphs or bodyPr both (a txBody needs a:bodyPr and at least one a:p)', () => {
    const txBody = body('');
    fill(txBody, '');
    expect(childElements(txBody).map((e) => e.name)).toEqual(['a:bodyPr', 'a:p']);
    const txBody2 = body('<a:bodyPr/><a:lstStyle/>');
    fill(txBody2, 'x');
    expect(childElements(txBody2).map((e) => e.name)).toEqual(['a:bodyPr', 'a:lstStyle', 'a:p']);
  });
});

describe('fillText with runs', () => {
  it('gives each run the template paragraph’s first-run rPr overlaid with its own properties, in schema order', () => {
    const txBody = body(TEMPLATE);
    fill(
      txBody,
      runs(
        { text: 'plain ' },
        {
          text: 'loud',
          props: {
            bold: false,
            italic: true,
            size: 3200,
            underline: 'dbl',
            color: '00FF00',
            highlight: 'FFFF00',
            font: 'Courier New',
          },
        },
        { text: 'struck', props: { strike: true, baseline: 30000 } },
      ),
    );
    const [plain, loud, struck] = runsOf(paragraphs(txBody)[0]!);
    expect(rPrOf(plain!).attrs).toEqual({ lang: 'en-US', sz: '2400', b: '1' });
    const rPr = rPrOf(loud!);
    expect(rPr.attrs).toEqual({ lang: 'en-US', sz: '3200', b: '0', i: '1', u: 'dbl' });
    expect(childElements(rPr).map((e) => e.name)).toEqual(['a:solidFill', 'a:highlight', 'a:latin', 'a:ea']);
    expect(serializeElement(rPr)).toContain('<a:solidFill><a:srgbClr val="00FF00"/></a:solidFill>');
    expect(serializeElement(rPr)).toContain('<a:highlight><a:srgbClr val="FFFF00"/></a:highlight>');
    expect(child(rPr, 'a:latin')!.attrs).toEqual({ typeface: 'Courier New' });
    expect(child(rPr, 'a:ea')!.attrs).toEqual({ typeface: 'Courier New' });
    expect(rPrOf(struck!).attrs).toMatchObject({ strike: 'sngStrike', baseline: '30000' });
  });

  it('replaces the template fill and font rather than duplicating them', () => {
    const txBody = body(TEMPLATE);
    fill(
      txBody,
      runs({ text: 'a' }, { text: 'b', props: { color: '0000FF', font: 'Arial' }, newParagraph: true }),
    );
    const rPr = rPrOf(runsOf(paragraphs(txBody)[1]!)[0]!);
    expect(childElements(rPr).map((e) => e.name)).toEqual(['a:solidFill', 'a:latin', 'a:ea']);
    expect(serializeElement(rPr)).toContain('val="0000FF"');
    expect(serializeElement(rPr)).not.toContain('FF0000');
    expectSchemaOrder(rPr, RUN_PROPERTIES_ORDER);
  });

  it('puts a hyperlink at its place in the rPr sequence with the relationship id the caller made', () => {
    const links: Hyperlink[] = [];
    const txBody = body(
      '<a:bodyPr/><a:p><a:r><a:rPr lang="en-US"><a:solidFill><a:srgbClr val="111111"/></a:solidFill>' +
        '<a:latin typeface="Arial"/><a:cs typeface="Arial"/><a:rtl val="0"/></a:rPr><a:t>x</a:t></a:r></a:p>',
    );
    fill(txBody, runs({ text: 'see docs', props: { hyperlink: 'https://example.com/a?b=1&c=2' } }), links);
    const rPr = rPrOf(runsOf(paragraphs(txBody)[0]!)[0]!);
    expect(links).toEqual(['https://example.com/a?b=1&c=2']);
    expect(childElements(rPr).map((e) => e.name)).toEqual([
      'a:solidFill',
      'a:latin',
      'a:cs',
      'a:hlinkClick',
      'a:rtl',
    ]);
    expect(child(rPr, 'a:hlinkClick')!.attrs['r:id']).toBe('rId11');
    expectSchemaOrder(rPr, RUN_PROPERTIES_ORDER);
  });

  it('writes no a:hlinkClick when the caller cannot link (empty relationship id)', () => {
    const txBody = body('<a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>x</a:t></a:r></a:p>');
    const content = runs({ text: 'see docs', props: { hyperlink: 'https://example.com', bold: true } });
    fillText(txBody, content, { path: 'p', addHyperlink: () => '', warnings: [] });
    const rPr = rPrOf(runsOf(paragraphs(txBody)[0]!)[0]!);
    expect(rPr.attrs['b']).toBe('1');
    expect(child(rPr, 'a:hlinkClick')).toBeUndefined();
  });

  it('writes paragraph properties into a:pPr in schema order: align, indent, spacing, bullets, level, bullet size', () => {
    const txBody = body(TEMPLATE);
    const content: TextContent = {
      kind: 'text',
      fromRuns: true,
      paragraphs: [
        {
          props: {
            align: 'r',
            indent: 457200.4,
            lineSpacing: { unit: 'percent', value: 150000 },
            bullet: true,
            bulletSize: 80000,
          },
          runs: [{ text: 'first', props: {} }],
        },
        {
          props: { bullet: false, level: 2, lineSpacing: { unit: 'points', value: 2400 } },
          runs: [{ text: 'second', props: {} }],
        },
        { props: { bulletChar: '–' }, runs: [{ text: 'third', props: {} }] },
      ],
    };
    fill(txBody, content);
    const [first, second, third] = paragraphs(txBody).map((p) => child(p, 'a:pPr')!);
    expect(first!.attrs).toMatchObject({ algn: 'r', marL: '457200' });
    expect(serializeElement(first!)).toContain('<a:lnSpc><a:spcPct val="150000"/></a:lnSpc>');
    expect(child(first!, 'a:buChar')!.attrs['char']).toBe('•');
    expect(child(first!, 'a:buSzPct')!.attrs['val']).toBe('80000');
    expectSchemaOrder(first!, PARAGRAPH_PROPERTIES_ORDER);

    // Template paragraph 1 had a bullet: switching it off leaves a:buNone and no a:buChar.
    expect(child(second!, 'a:buChar')).toBeUndefined();
    expect(child(second!, 'a:buNone')).toBeDefined();
    expect(second!.attrs['lvl']).toBe('2');
    expect(serializeElement(second!)).toContain('<a:lnSpc><a:spcPts val="2400"/></a:lnSpc>');
    expectSchemaOrder(second!, PARAGRAPH_PROPERTIES_ORDER);

    expect(childElements(third!, 'a:buChar').map((e) => e.attrs['char'])).toEqual(['–']);
    expectSchemaOrder(third!, PARAGRAPH_PROPERTIES_ORDER);
  });

  it('switches bullets on in a plain text box with a hanging indent, as PowerPoint does', () => {
    const txBody = body('<a:bodyPr/><a:p><a:r><a:rPr lang="en-US"/><a:t>x</a:t></a:r></a:p>');
    fill(txBody, {
      kind: 'text',
      fromRuns: true,
      paragraphs: [{ props: { bullet: true }, runs: [{ text: 'item', props: {} }] }],
    });
    const pPr = child(paragraphs(txBody)[0]!, 'a:pPr')!;
    expect(pPr.attrs).toEqual({ marL: '285750', indent: '-285750' });
    expect(child(pPr, 'a:buChar')!.attrs['char']).toBe('•');
  });

  it('starts a new paragraph at a \\n inside a run, keeping that run’s properties', () => {
    const txBody = body(TEMPLATE);
    fill(txBody, runs({ text: 'a\nb', props: { italic: true } }));
    const ps = paragraphs(txBody);
    expect(ps.map((p) => textContent(p))).toEqual(['a', 'b']);
    expect(ps.map((p) => rPrOf(runsOf(p)[0]!).attrs['i'])).toEqual(['1', '1']);
  });

  it('writes integers only, clamped to the schema ranges', () => {
    const txBody = body(TEMPLATE);
    fill(txBody, {
      kind: 'text',
      fromRuns: true,
      paragraphs: [
        {
          props: { level: 12, bulletSize: 5, indent: -3 },
          runs: [{ text: 'x', props: { size: 1234.56, baseline: -25000.4 } }],
        },
      ],
    });
    const xml = serializeElement(txBody);
    expect(xml).not.toMatch(/="-?\d+\.\d+"/);
    const p = paragraphs(txBody)[0]!;
    expect(child(p, 'a:pPr')!.attrs).toMatchObject({ lvl: '8', indent: '-3' });
    expect(child(child(p, 'a:pPr')!, 'a:buSzPct')!.attrs['val']).toBe('25000');
    expect(rPrOf(runsOf(p)[0]!).attrs).toMatchObject({ sz: '1235', baseline: '-25000' });
  });
});
