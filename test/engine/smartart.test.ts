/**
 * SmartArt text (docs/payload.md, SmartArt): node texts in text-pane order, written into the data model and into
 * the drawing viewers draw; fewer texts remove the rest, more are refused; inspect lists the nodes.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../src/engine/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import { SMARTART_NODES, smartArtDeck } from '../support/decks/smartart-deck.js';
import { renderToPdf, renderToPdfText } from '../support/readers/render.js';
import { describeWithLibreOffice } from '../support/servers/libreoffice.js';
import { parts, run, slideParts } from './deck.js';

const TEMPLATE = smartArtDeck();
/** Three nodes, the first a link. */
const LINKED = [
  { text_run: 'Docs', text_properties: { hyperlink: 'https://example.com/docs' } },
  { text_run: 'Build', text_properties: { new_line: true } },
  { text_run: 'Ship', text_properties: { new_line: true } },
];
const TIMEOUT = 240_000;

/** The diagram parts a slide's relationships name, read back as the node texts of each. */
function diagramTexts(
  bytes: Uint8Array,
  slide: number,
): { data: string[]; drawing: string[]; parts: string[] } {
  const all = parts(bytes);
  const slidePart = slideParts(bytes)[slide] ?? '';
  const rels = all.get(slidePart.replace(/slides\/(slide\d+\.xml)$/, 'slides/_rels/$1.rels')) ?? '';
  const target = (type: string): string => {
    const rel =
      [...rels.matchAll(/<Relationship [^>]*>/g)].find((m) => m[0].includes(`/${type}"`))?.[0] ?? '';
    return `ppt/${/Target="\.\.\/([^"]+)"/.exec(rel)?.[1] ?? ''}`;
  };
  const data = all.get(target('diagramData')) ?? '';
  const drawing = all.get(target('diagramDrawing')) ?? '';
  const texts = (xml: string, point: RegExp): string[] =>
    [...xml.matchAll(point)].map((m) => [...m[0].matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => t[1]).join(''));
  return {
    // Node points: no type attribute (ST_PtType "node").
    data: texts(data, /<dgm:pt modelId="[^"]*">[\s\S]*?<\/dgm:pt>/g),
    drawing: texts(drawing, /<dsp:sp [\s\S]*?<\/dsp:sp>/g),
    parts: [target('diagramData'), target('diagramDrawing')],
  };
}

describe('SmartArt text', () => {
  it('fills the nodes in order, in the data model and in the drawing', async () => {
    const result = run(TEMPLATE, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['Plan', 'Build', 'Ship'] }] }],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    const { data, drawing } = diagramTexts(result.bytes, 0);
    expect(data).toEqual(['Plan', 'Build', 'Ship']);
    expect(drawing).toEqual(['Plan', 'Build', 'Ship']);
    expect(result.warnings).toEqual([]);
  });

  it('removes the nodes past the last text, with their connections and drawn shapes', async () => {
    const result = run(TEMPLATE, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['Only one'] }] }],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    const {
      data,
      drawing,
      parts: [dataPart],
    } = diagramTexts(result.bytes, 0);
    expect(data).toEqual(['Only one']);
    expect(drawing).toEqual(['Only one']);
    const xml = parts(result.bytes).get(dataPart!) ?? '';
    // Nothing names a removed point: every connection's ends are points that are still there.
    const ids = new Set([...xml.matchAll(/<dgm:pt modelId="([^"]+)"/g)].map((m) => m[1]));
    for (const cxn of xml.matchAll(/<dgm:cxn [^>]*srcId="([^"]+)" destId="([^"]+)"/g)) {
      expect(ids.has(cxn[1])).toBe(true);
      expect(ids.has(cxn[2])).toBe(true);
    }
    expect(xml.match(/type="parTrans"/g)).toHaveLength(1);
  });

  it('writes every node a drawn box shows into it, in order, and only those left', async () => {
    const shared = smartArtDeck(true);
    const result = run(shared, {
      slides: [
        { slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['One', 'Two', 'Three'] }] },
        { slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['One', 'Two'] }] },
      ],
    });
    await expectValidPptx(result.bytes, shared);
    expect(diagramTexts(result.bytes, 0)).toMatchObject({
      data: ['One', 'Two', 'Three'],
      drawing: ['One', 'TwoThree'],
    });
    const all = parts(result.bytes);
    const box = /<dsp:sp [\s\S]*?<\/dsp:sp>/g;
    const [, second] = [...(all.get(diagramTexts(result.bytes, 0).parts[1]!) ?? '').matchAll(box)].map(
      (m) => m[0],
    );
    expect(second!.match(/<a:p>/g)).toHaveLength(2);
    expect(diagramTexts(result.bytes, 1)).toMatchObject({ data: ['One', 'Two'], drawing: ['One', 'Two'] });
  });

  it('takes a string or runs as one node per paragraph', () => {
    const result = run(TEMPLATE, {
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Diagram 1',
              content: [
                { text_run: 'First', text_properties: { bold: true } },
                { text_run: 'Second', text_properties: { new_line: true } },
              ],
            },
          ],
        },
        { slide_index: 0, shapes: [{ name: 'Diagram 1', content: 'A\nB\nC' }] },
      ],
    });
    expect(diagramTexts(result.bytes, 0).data).toEqual(['First', 'Second']);
    expect(diagramTexts(result.bytes, 1).data).toEqual(['A', 'B', 'C']);
  });

  it('gives each filled copy of the slide its own diagram parts', async () => {
    const result = run(TEMPLATE, {
      slides: [
        { slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['One', 'Two'] }] },
        { slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['Uno', 'Dos', 'Tres'] }] },
        { slide_index: 0 },
      ],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    const [first, second, third] = [0, 1, 2].map((i) => diagramTexts(result.bytes, i));
    expect(first!.data).toEqual(['One', 'Two']);
    expect(second!.drawing).toEqual(['Uno', 'Dos', 'Tres']);
    expect(third!.data).toEqual(SMARTART_NODES);
    expect(new Set([first!.parts[0], second!.parts[0], third!.parts[0]]).size).toBe(3);
  });

  it('links a run to a web address through the data part and through the drawing part, each by its own relationship', async () => {
    const result = run(TEMPLATE, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: LINKED }] }],
    });
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, TEMPLATE);
    const all = parts(result.bytes);
    const [data, drawing] = diagramTexts(result.bytes, 0).parts;
    for (const part of [data!, drawing!]) {
      const xml = all.get(part)!;
      const ids = [...xml.matchAll(/<a:hlinkClick [^>]*r:id="([^"]+)"/g)].map((m) => m[1]);
      expect(ids, part).toHaveLength(1);
      const rels = all.get(part.replace(/([^/]+)$/, '_rels/$1.rels')) ?? '';
      const rel = [...rels.matchAll(/<Relationship [^>]*>/g)].find((m) =>
        m[0].includes(`Id="${ids[0]}"`),
      )?.[0];
      expect(rel, part).toContain('Target="https://example.com/docs"');
      expect(rel, part).toContain('TargetMode="External"');
      expect(rel, part).toContain('/relationships/hyperlink"');
      // The link sits on the run that says "Docs".
      expect(xml).toMatch(/<a:r><a:rPr[^>]*>(?:(?!<\/a:r>)[\s\S])*<a:hlinkClick [\s\S]*?<a:t>Docs<\/a:t>/);
    }
  });

  it('refuses a link to a slide inside SmartArt, naming the shape and the content', () => {
    const error = engineErrorOf(() =>
      run(TEMPLATE, {
        slides: [
          {
            slide_index: 0,
            shapes: [
              {
                name: 'Diagram 1',
                content: [{ text_run: 'Jump', text_properties: { hyperlink: { slide: 0 } } }],
              },
            ],
          },
        ],
      }),
    );
    expect(error.code).toBe('CONTENT_MISMATCH');
    expect(error.message).toBe(
      'presentation.slides[0].shapes[0].content: SmartArt "Diagram 1": links to slides are not supported inside ' +
        'SmartArt (LibreOffice and the PDF do not follow them); a web or mailto link is',
    );
  });

  it('refuses more texts than the graphic has nodes, saying how many it holds', () => {
    const error = engineErrorOf(() =>
      run(TEMPLATE, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['a', 'b', 'c', 'd'] }] }],
      }),
    );
    expect(error.code).toBe('CONTENT_MISMATCH');
    expect(error.message).toBe(
      'presentation.slides[0].shapes[0].content: SmartArt "Diagram 1" holds 3 nodes (the lines of its text pane) ' +
        'and 4 texts were given; adding nodes is not supported: send at most 3, or add nodes to the template',
    );
  });

  it('refuses a list of strings for a text shape', () => {
    const error = engineErrorOf(() =>
      run(TEMPLATE, { slides: [{ slide_index: 0, shapes: [{ name: 'Title 1', content: ['a', 'b'] }] }] }),
    );
    expect(error.message).toContain('shape "Title 1" is a text shape but content is a list of strings');
  });

  it('is listed by inspect with its node texts', () => {
    const shape = inspect(TEMPLATE).slides[0]?.shapes.find((s) => s.name === 'Diagram 1');
    expect(shape?.kind).toBe('smartart');
    expect(shape?.smartart).toEqual({ nodes: SMARTART_NODES.map((text) => ({ text, level: 0 })) });
  });
});

describeWithLibreOffice('SmartArt text as rendered', () => {
  it(
    'the PDF shows the new node texts and not the removed ones',
    async () => {
      const result = run(TEMPLATE, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['Discover', 'Deliver'] }] }],
      });
      await expectValidPptx(result.bytes, TEMPLATE);
      const [page] = await renderToPdfText(result.bytes);
      expect(page).toContain('Discover');
      expect(page).toContain('Deliver');
      for (const old of SMARTART_NODES) expect(page).not.toContain(old);
    },
    TIMEOUT,
  );

  it(
    'a link in a SmartArt run is a link annotation over its text in the PDF',
    async () => {
      const result = run(TEMPLATE, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: LINKED }] }],
      });
      const pdf = Buffer.from(await renderToPdf(result.bytes)).toString('latin1');
      // LibreOffice writes each annotation as a plain dictionary: /Subtype/Link, its rectangle, its text
      // (as UTF-16 hex in /Contents) and a /URI action (ISO 32000-1 §12.5.6.5, §12.6.4.7).
      const links = [...pdf.matchAll(/\/Subtype\s*\/Link[\s\S]*?\/URI\s*\(([^)]*)\)/g)].map((m) => m[1]);
      expect(links).toEqual(['https://example.com/docs']);
      expect((await renderToPdfText(result.bytes))[0]).toContain('Docs');
    },
    TIMEOUT,
  );
});
