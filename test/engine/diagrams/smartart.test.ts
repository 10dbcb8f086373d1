/**
 * SmartArt text (docs/payload.md, SmartArt): node texts in text-pane order, written into the data model and into
 * the drawing viewers draw; fewer texts remove the rest, more add nodes where the boxes are in a row, column or
 * grid and are refused with the reason elsewhere; inspect lists the nodes.
 */
import { describe, expect, it } from 'vitest';
import { inspect } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { MAX_DIAGRAM_NODES } from '../../../src/engine/payload/shape-request.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { SMARTART_NODES, smartArtDeck } from '../../support/decks/smartart-deck.js';
import { renderToPdf, renderToPdfText } from '../../support/readers/render.js';
import { describeWithLibreOffice } from '../../support/servers/libreoffice.js';
import { parts, run, slideParts } from '../../support/decks/deck.js';

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

interface DrawnBox {
  modelId: string;
  geometry: string;
  text: string;
  x: number;
  y: number;
  cx: number;
  cy: number;
}

/** The drawing's shapes in drawing order: box (dsp:spPr/a:xfrm), preset geometry and text. */
function drawnBoxes(bytes: Uint8Array, slide = 0): DrawnBox[] {
  const xml = parts(bytes).get(diagramTexts(bytes, slide).parts[1]!) ?? '';
  return [...xml.matchAll(/<dsp:sp modelId="([^"]+)">[\s\S]*?<\/dsp:sp>/g)].map((m) => {
    const [, x, y, cx, cy] = (
      /<a:xfrm[^>]*><a:off x="(-?\d+)" y="(-?\d+)"\/><a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(m[0]) ?? []
    ).map(Number);
    return {
      modelId: m[1]!,
      geometry: /prst="(\w+)"/.exec(m[0])?.[1] ?? '',
      text: [...m[0].matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((t) => t[1]).join(''),
      x: x!,
      y: y!,
      cx: cx!,
      cy: cy!,
    };
  });
}

const overlap = (a: DrawnBox, b: DrawnBox): boolean =>
  a.x < b.x + b.cx && b.x < a.x + a.cx && a.y < b.y + b.cy && b.y < a.y + a.cy;

/** The data model part as text. */
function dataModel(bytes: Uint8Array): string {
  return parts(bytes).get(diagramTexts(bytes, 0).parts[0]!) ?? '';
}

/** The attribute values of every element `tag` whose attributes match `filter`. */
function attributes(xml: string, tag: string, filter: RegExp, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${tag} [^>]*>`, 'g'))]
    .map((m) => m[0])
    .filter((el) => filter.test(el))
    .map((el) => new RegExp(` ${name}="([^"]*)"`).exec(el)?.[1] ?? '');
}

const GUID = /^\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}$/;
const FIVE = ['Plan', 'Build', 'Test', 'Ship', 'Learn'];

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
    const shared = smartArtDeck('shared');
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

  it('adds nodes past the last one to a list of bars, in the data model and as bars in the same extent', async () => {
    const result = run(TEMPLATE, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: FIVE }] }],
    });
    await expectValidPptx(result.bytes, TEMPLATE);
    expect(diagramTexts(result.bytes, 0)).toMatchObject({ data: FIVE, drawing: FIVE });
    const shape = inspect(result.bytes).slides[0]?.shapes.find((s) => s.name === 'Diagram 1');
    expect(shape?.smartart).toEqual({ nodes: FIVE.map((text) => ({ text, level: 0 })) });

    // Five bars top to bottom, inside the extent the three covered (0, 200000 to 4000000, 3400000), as wide as
    // before, not overlapping.
    const boxes = drawnBoxes(result.bytes);
    expect(boxes.map((b) => b.text)).toEqual(FIVE);
    for (const box of boxes) {
      expect(box).toMatchObject({ x: 0, cx: 4000000 });
      expect(box.y).toBeGreaterThanOrEqual(200000);
      expect(box.y + box.cy).toBeLessThanOrEqual(3400000);
    }
    for (const [i, box] of boxes.entries()) {
      const next = boxes[i + 1];
      if (next) expect(box.y + box.cy).toBeLessThan(next.y);
    }
    expect(boxes[4]!.y + boxes[4]!.cy).toBeGreaterThan(3390000);

    // The data model: fresh ids, every connection between points that are there, siblings numbered in order,
    // and each drawn box names a presentation point that presents its node.
    const xml = dataModel(result.bytes);
    const ids = attributes(xml, 'dgm:pt', /./, 'modelId');
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids.slice(-8)) expect(id).toMatch(GUID);
    for (const end of ['srcId', 'destId'])
      for (const id of attributes(xml, 'dgm:cxn', /./, end)) expect(ids).toContain(id);
    expect(attributes(xml, 'dgm:cxn', /parTransId=/, 'srcOrd')).toEqual(['0', '1', '2', '3', '4']);
    expect(attributes(xml, 'dgm:prSet', /presName="node"/, 'presStyleIdx')).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(attributes(xml, 'dgm:prSet', /presName="node"/, 'presStyleCnt')).toEqual([
      '5',
      '5',
      '5',
      '5',
      '5',
    ]);
    const presentedBy = new Map(
      [...xml.matchAll(/<dgm:cxn [^>]*type="presOf" srcId="([^"]+)" destId="([^"]+)"/g)].map((m) => [
        m[2],
        m[1],
      ]),
    );
    const nodeIds = attributes(xml, 'dgm:cxn', /parTransId=/, 'destId');
    expect(boxes.map((b) => presentedBy.get(b.modelId))).toEqual(nodeIds);
    expect(result.warnings).toEqual([]);
  });

  it('adds nodes to a row of boxes with arrows between them: boxes and arrows in turn, aspect kept', async () => {
    const process = smartArtDeck('process');
    const result = run(process, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: FIVE }] }],
    });
    await expectValidPptx(result.bytes, process);
    expect(diagramTexts(result.bytes, 0).data).toEqual(FIVE);
    const drawn = drawnBoxes(result.bytes);
    expect(drawn.map((b) => b.geometry)).toEqual([
      ...['rect', 'rightArrow', 'rect', 'rightArrow', 'rect', 'rightArrow', 'rect', 'rightArrow', 'rect'],
    ]);
    const boxes = drawn.filter((b) => b.geometry === 'rect');
    expect(boxes.map((b) => b.text)).toEqual(FIVE);
    // One row inside the three boxes' extent (x 0 to 3800000), on the same middle line (y 1700000), each box
    // the shape it was (5:3), each arrow in the gap after its box.
    for (const box of boxes) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.cx).toBeLessThanOrEqual(3800000);
      expect(Math.abs(box.y + box.cy / 2 - 1700000)).toBeLessThanOrEqual(1);
      expect(box.cx / box.cy).toBeCloseTo(1000000 / 600000, 2);
    }
    drawn.forEach((arrow, i) => {
      if (arrow.geometry !== 'rightArrow') return;
      expect(arrow.x).toBeGreaterThan(drawn[i - 1]!.x + drawn[i - 1]!.cx);
      expect(arrow.x + arrow.cx).toBeLessThan(drawn[i + 1]!.x);
      expect(arrow.text).toBe('');
    });
    expect(drawn.some((a, i) => drawn.slice(i + 1).some((b) => overlap(a, b)))).toBe(false);
    // Four transitions are presented now, counted 0 to 3 of 4.
    const xml = dataModel(result.bytes);
    expect(attributes(xml, 'dgm:prSet', /presName="sibTrans"/, 'presStyleIdx')).toEqual(['0', '1', '2', '3']);
    expect(attributes(xml, 'dgm:prSet', /presName="sibTrans"/, 'presStyleCnt')).toEqual(['4', '4', '4', '4']);
    // The presentation tree lists them in turn too: node, arrow, node, …
    const presName = new Map(
      [...xml.matchAll(/<dgm:pt modelId="([^"]+)" type="pres"><dgm:prSet [^>]*presName="([^"]+)"/g)].map(
        (m) => [m[1], m[2]],
      ),
    );
    const tree = [...xml.matchAll(/<dgm:cxn [^>]*type="presParOf"[^>]*>/g)]
      .map((m) => m[0])
      .map((cxn) => ({
        order: Number(/srcOrd="(\d+)"/.exec(cxn)?.[1]),
        name: presName.get(/destId="([^"]+)"/.exec(cxn)?.[1] ?? ''),
      }))
      .sort((a, b) => a.order - b.order);
    expect(tree.map((entry) => entry.order)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(tree.map((entry) => entry.name)).toEqual([
      ...['node', 'sibTrans', 'node', 'sibTrans', 'node', 'sibTrans', 'node', 'sibTrans', 'node'],
    ]);
  });

  it('shrinks the text of every box of a row laid out smaller by the factor the boxes shrank, arrows aside', async () => {
    const process = smartArtDeck('process');
    const words = ['One', 'Two', 'Three', 'Four', 'Five'];
    const result = run(process, {
      slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: words }] }],
    });
    await expectValidPptx(result.bytes, process);
    const xml = parts(result.bytes).get(diagramTexts(result.bytes, 0).parts[1]!) ?? '';
    const shapes = [...xml.matchAll(/<dsp:sp [\s\S]*?<\/dsp:sp>/g)].map((m) => m[0]);
    const boxes = drawnBoxes(result.bytes);
    const sizes = (sp: string): number[] =>
      [...sp.matchAll(/<a:(?:rPr|endParaRPr) [^>]*\bsz="(\d+)"/g)].map((m) => Number(m[1]));
    const insets = (sp: string): number[] =>
      ['lIns', 'tIns', 'rIns', 'bIns'].map((name) => Number(new RegExp(` ${name}="(\\d+)"`).exec(sp)?.[1]));
    // The template's boxes are 1000000 EMU wide with 18 pt text and 91440 EMU insets; a row's text is bounded
    // by the width. The size shrinks by the same factor, rounded down to half points as PowerPoint writes them.
    const factor = boxes[0]!.cx / 1000000;
    expect(factor).toBeLessThan(0.6);
    const expected = Math.floor((1800 * factor) / 50) * 50;
    shapes.forEach((sp, i) => {
      if (boxes[i]!.geometry === 'rightArrow') {
        expect(sizes(sp), `arrow ${i}`).toEqual([1800]);
        expect(insets(sp)).toEqual([91440, 91440, 91440, 91440]);
        return;
      }
      expect(boxes[i]!.cx).toBe(boxes[0]!.cx);
      expect(sizes(sp).length, boxes[i]!.text).toBeGreaterThan(0);
      for (const size of sizes(sp)) expect(size, boxes[i]!.text).toBe(expected);
      for (const inset of insets(sp)) expect(inset).toBe(Math.round(91440 * factor));
      // PowerPoint's own drawings say a:noAutofit: the sizes written are the sizes shown.
      expect(sp).toContain('<a:noAutofit/>');
    });
    expect(boxes.filter((b) => b.geometry === 'rect').map((b) => b.text)).toEqual(words);
  });

  it('refuses more texts than nodes where the boxes are not in a row, column or grid, saying why', () => {
    const error = engineErrorOf(() =>
      run(smartArtDeck('scattered'), {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['a', 'b', 'c', 'd'] }] }],
      }),
    );
    expect(error.code).toBe('CONTENT_MISMATCH');
    expect(error.message).toBe(
      'presentation.slides[0].shapes[0].content: SmartArt "Diagram 1" holds 3 nodes (the lines of its text pane) ' +
        "and 4 texts were given; new nodes cannot be placed: this layout's boxes are not in a row, column or grid; " +
        'send at most 3, or add nodes to the template',
    );
  });

  it('refuses more texts than nodes where the last node is drawn in the box of another', () => {
    const error = engineErrorOf(() =>
      run(smartArtDeck('shared'), {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: ['a', 'b', 'c', 'd'] }] }],
      }),
    );
    expect(error.code).toBe('CONTENT_MISMATCH');
    expect(error.message).toContain('new nodes cannot be placed: node 3 is drawn in the box of another node');
  });

  it('takes 1 000 texts and refuses more before any work, as a list or as the lines of one string', () => {
    const texts = (count: number) => Array.from({ length: count }, (_, i) => `Node ${i + 1}`);
    const fill = (content: unknown) =>
      run(TEMPLATE, { slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content }] }] });
    expect(fill(texts(MAX_DIAGRAM_NODES)).slideCount).toBe(1);
    const path = 'presentation.slides[0].shapes[0].content';
    const list = engineErrorOf(() => fill(texts(100_000)));
    expect(list.code).toBe('INVALID_PAYLOAD');
    expect(list.message).toBe(
      `${path}: 100000 texts is more than a SmartArt takes (at most 1000); split them over several graphics or slides`,
    );
    const lines = engineErrorOf(() => fill(texts(MAX_DIAGRAM_NODES + 1).join('\n')));
    expect(lines.code).toBe('LIMIT_EXCEEDED');
    expect(lines.message).toBe(
      `${path}: 1001 texts is more than a SmartArt takes (at most 1000); split them over several graphics or slides`,
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
    'the PDF shows the texts of the nodes added',
    async () => {
      const result = run(TEMPLATE, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: FIVE }] }],
      });
      await expectValidPptx(result.bytes, TEMPLATE);
      const [page] = await renderToPdfText(result.bytes);
      const lines = page!.split('\n').map((line) => line.trim());
      expect(lines.filter((line) => FIVE.includes(line))).toEqual(FIVE);
    },
    TIMEOUT,
  );

  it(
    'the PDF shows each word of a row grown to five boxes whole, its text shrunk with the boxes',
    async () => {
      const process = smartArtDeck('process');
      const words = ['One', 'Two', 'Three', 'Four', 'Five'];
      const result = run(process, {
        slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content: words }] }],
      });
      await expectValidPptx(result.bytes, process);
      const [page] = await renderToPdfText(result.bytes);
      // At the template's 18 pt LibreOffice breaks "Three" and "Four" inside their boxes ("Thr" / "ee").
      const shown = page!.split(/\s+/);
      for (const word of words) expect(shown, page).toContain(word);
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
