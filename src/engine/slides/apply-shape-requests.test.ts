import { describe, expect, it } from 'vitest';
import { EngineError, type Warning } from '../errors.js';
import type {
  Hyperlink,
  ShapeContent,
  ShapeRequest,
  ShapeSettings,
  ShapeTarget,
  ValidationMode,
} from '../payload/model.js';
import {
  child,
  childElements,
  descendants,
  parseXml,
  serializeElement,
  textContent,
  type XmlElement,
} from '../xml/index.js';
import { applyShapeRequests, type SlideFillContext } from './apply-shape-requests.js';
import { findShape, listShapes, type FoundShape } from '../shapes/find-shape.js';
import { SHAPE_PROPERTIES_ORDER } from '../shapes/shape-properties.js';

const unreachable = (): never => expect.unreachable('no rich content here');

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';

const SLIDE_PATH = 'presentation.slides[2]';
const xfrm = '<a:xfrm><a:off x="100" y="200"/><a:ext cx="3000000" cy="1000000"/></a:xfrm>';
const textSp = (
  id: number,
  name: string,
  spPr = `<p:spPr>${xfrm}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:ln w="12700"/></p:spPr>`,
  nvPr = '',
) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/><p:nvPr>${nvPr}</p:nvPr></p:nvSpPr>${spPr}` +
  `<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="2000"/><a:t>old ${name}</a:t></a:r></a:p></p:txBody></p:sp>`;
const frame = (id: number, name: string, uri: string) =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="${name}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
  `<p:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></p:xfrm><a:graphic><a:graphicData uri="${uri}"/></a:graphic></p:graphicFrame>`;

const SHAPES =
  textSp(2, 'Title 1', '<p:spPr/>', '<p:ph type="title"/>') +
  textSp(3, 'Body') +
  textSp(4, 'Body') +
  frame(5, 'Table 4', 'http://schemas.openxmlformats.org/drawingml/2006/table') +
  frame(6, 'Chart 5', 'http://schemas.openxmlformats.org/drawingml/2006/chart') +
  frame(7, 'Diagram 6', 'http://schemas.openxmlformats.org/drawingml/2006/diagram') +
  `<p:pic><p:nvPicPr><p:cNvPr id="8" name="Picture 7"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill/><p:spPr>${xfrm}</p:spPr></p:pic>` +
  '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="9" name="Group 8"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
  textSp(10, 'Grouped') +
  '</p:grpSp>' +
  '<mc:AlternateContent><mc:Choice Requires="p14">' +
  textSp(11, 'Alt') +
  '</mc:Choice><mc:Fallback>' +
  textSp(11, 'Alt') +
  '</mc:Fallback></mc:AlternateContent>' +
  '<p:sp><p:nvSpPr><p:cNvPr id="12" name="Bare"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr><p:spPr/><p:style/></p:sp>';

function slide(): XmlElement {
  return parseXml(
    `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      `<p:grpSpPr/>${SHAPES}</p:spTree></p:cSld></p:sld>`,
  ).root;
}

let requestNo = 0;
function request(
  target: ShapeTarget,
  fields: Partial<Omit<ShapeRequest, 'target' | 'path'>> = {},
): ShapeRequest {
  return {
    path: `${SLIDE_PATH}.shapes[${requestNo++}]`,
    target,
    hidden: null,
    remove: false,
    contentField: 'content',
    settings: null,
    content: null,
    ...fields,
  };
}
const named = (name: string, fields: Partial<Omit<ShapeRequest, 'target' | 'path'>> = {}) =>
  request({ by: 'name', name }, fields);
const str = (value: string): ShapeContent => ({ kind: 'string', value });

function run(
  requests: ShapeRequest[],
  options: { mode?: ValidationMode; root?: XmlElement; inherited?: SlideFillContext['inheritedXfrm'] } = {},
) {
  const root = options.root ?? slide();
  const warnings: Warning[] = [];
  const links: Hyperlink[] = [];
  const rich: { shape: string; kind: string; content: ShapeContent; path: string }[] = [];
  const record = (shape: FoundShape, content: ShapeContent, path: string) => {
    rich.push({ shape: shape.name, kind: shape.kind, content, path });
  };
  applyShapeRequests(
    {
      slideRoot: root,
      slidePath: SLIDE_PATH,
      shapeValidation: options.mode ?? 'lenient',
      addHyperlink: (url) => {
        links.push(url);
        return `rId${100 + links.length}`;
      },
      inheritedXfrm: options.inherited ?? (() => null),
      fillers: { picture: record, table: record, diagram: record },
      fillChart: (shape, content, _settings, paths) => {
        if (content) record(shape, content, paths.content);
      },
      warnings,
    },
    requests,
  );
  return {
    root,
    warnings,
    links,
    rich,
    shape: (name: string) => findShape(spTree(root), { by: 'name', name }).shape,
  };
}

const spTree = (root: XmlElement) => child(child(root, 'p:cSld')!, 'p:spTree')!;

function caught(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected an EngineError');
}

describe('applyShapeRequests: finding', () => {
  it('fills a shape found by name and one found by id, inside a group too', () => {
    const { shape } = run([
      named('Title 1', { content: str('Hello') }),
      request({ by: 'id', id: 10 }, { content: str('In group') }),
    ]);
    expect(textContent(shape('Title 1')!.element)).toBe('Hello');
    expect(textContent(shape('Grouped')!.element)).toBe('In group');
  });

  it('warns when several shapes share the name and fills only the first in document order', () => {
    const { root, warnings } = run([named('Body', { content: str('first') })]);
    const bodies = listShapes(spTree(root)).filter((s) => s.name === 'Body');
    expect(bodies.map((s) => textContent(s.element))).toEqual(['first', 'old Body']);
    expect(warnings).toEqual([
      {
        path: `${SLIDE_PATH}.shapes[${requestNo - 1}]`,
        message: expect.stringContaining('2 shapes named "Body"'),
      },
    ]);
  });

  it('lenient: a missing shape is skipped with a warning naming the shapes the slide has; later entries still apply', () => {
    const { warnings, shape } = run([
      named('Subtitle 2', { content: str('x') }),
      named('Title 1', { content: str('kept going') }),
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toBe(
      'slide has no shape named "Subtitle 2"; its shapes are: "Title 1", "Body", "Body", "Table 4", "Chart 5", "Diagram 6", ' +
        '"Picture 7", "Group 8", "Grouped", "Alt", "Bare"',
    );
    expect(textContent(shape('Title 1')!.element)).toBe('kept going');
  });

  it('lists at most 40 names of a crowded slide and counts the rest', () => {
    const many = Array.from({ length: 45 }, (_, i) => textSp(100 + i, `Box ${i}`)).join('');
    const root = parseXml(
      `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
        `<p:grpSpPr/>${many}</p:spTree></p:cSld></p:sld>`,
    ).root;
    const { warnings } = run([named('Nope')], { root });
    expect(warnings[0]!.message).toContain('"Box 39", … and 5 more');
    expect(warnings[0]!.message).not.toContain('"Box 40"');
  });

  it('strict: a missing shape is a SHAPE_NOT_FOUND error at the shape entry’s path', () => {
    const entry = request({ by: 'id', id: 77 });
    const error = caught(() => run([entry], { mode: 'strict' }));
    expect(error.code).toBe('SHAPE_NOT_FOUND');
    expect(error.path).toBe(entry.path);
    expect(error.message).toContain('slide has no shape with id 77; its shapes are: "Title 1"');
  });
});

describe('applyShapeRequests: remove and hide', () => {
  it('removes a shape and does nothing else for that entry', () => {
    const { root, shape } = run([
      named('Chart 5', { remove: true, content: { kind: 'chart', categories: [], series: [] } }),
    ]);
    expect(shape('Chart 5')).toBeUndefined();
    expect(serializeElement(root)).not.toContain('Chart 5');
  });

  it('hides with hidden="1" and unhides by removing the attribute, in both AlternateContent branches', () => {
    const { root } = run([named('Alt', { hidden: true }), named('Body', { hidden: true })]);
    const altProps = [...descendants(root, 'p:cNvPr')].filter((e) => e.attrs['name'] === 'Alt');
    expect(altProps.map((e) => e.attrs['hidden'])).toEqual(['1', '1']);
    applyShapeRequests(
      {
        slideRoot: root,
        slidePath: SLIDE_PATH,
        shapeValidation: 'strict',
        addHyperlink: () => 'x',
        inheritedXfrm: () => null,
        fillers: { picture: unreachable, table: unreachable, diagram: unreachable },
        fillChart: unreachable,
        warnings: [],
      },
      [named('Alt', { hidden: false })],
    );
    expect(altProps.map((e) => e.attrs['hidden'])).toEqual([undefined, undefined]);
  });
});

describe('applyShapeRequests: settings', () => {
  const settings = (s: ShapeSettings) => ({ settings: s });

  it('sets geometry in an existing a:xfrm as integers and keeps the values not given', () => {
    const { shape } = run([named('Picture 7', settings({ left: 12700.4, width: 2540000 }))]);
    const x = child(child(shape('Picture 7')!.element, 'p:spPr')!, 'a:xfrm')!;
    expect(serializeElement(x)).toBe(
      '<a:xfrm><a:off x="12700" y="200"/><a:ext cx="2540000" cy="1000000"/></a:xfrm>',
    );
  });

  it('creates a:xfrm first in p:spPr from the inherited placeholder geometry for the values not given', () => {
    const { shape } = run([named('Title 1', settings({ top: 5000 }))], {
      inherited: (s) => (s.name === 'Title 1' ? { x: 1, y: 2, cx: 3, cy: 4 } : null),
    });
    const spPr = child(shape('Title 1')!.element, 'p:spPr')!;
    expect(serializeElement(spPr)).toBe(
      '<p:spPr><a:xfrm><a:off x="1" y="5000"/><a:ext cx="3" cy="4"/></a:xfrm></p:spPr>',
    );
  });

  it('warns instead of guessing when a shape without a:xfrm inherits none and the values are incomplete', () => {
    const { warnings, shape } = run([named('Title 1', settings({ left: 1 }))]);
    expect(child(child(shape('Title 1')!.element, 'p:spPr')!, 'a:xfrm')).toBeUndefined();
    expect(warnings[0]!.message).toContain('no position');
  });

  it('moves a graphic frame through p:xfrm and a group through its a:xfrm', () => {
    const { shape } = run([
      named('Table 4', settings({ left: 1, top: 2, width: 3, height: 4 })),
      named('Group 8', settings({ left: 9, top: 8, width: 7, height: 6 })),
    ]);
    expect(serializeElement(child(shape('Table 4')!.element, 'p:xfrm')!)).toBe(
      '<p:xfrm><a:off x="1" y="2"/><a:ext cx="3" cy="4"/></p:xfrm>',
    );
    expect(serializeElement(child(child(shape('Group 8')!.element, 'p:grpSpPr')!, 'a:xfrm')!)).toBe(
      '<a:xfrm><a:off x="9" y="8"/><a:ext cx="7" cy="6"/><a:chOff x="9" y="8"/><a:chExt cx="7" cy="6"/></a:xfrm>',
    );
  });

  it('takes left/top/width/height in slide coordinates for a member of a scaled, nested group', () => {
    const member =
      '<p:sp><p:nvSpPr><p:cNvPr id="22" name="Member"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>' +
      '<p:spPr><a:xfrm><a:off x="100" y="100"/><a:ext cx="200" cy="200"/></a:xfrm></p:spPr></p:sp>';
    // Outer group: child space 0..1000 shown at 1000..3000 (×2); inner group: identity.
    const group = (id: number, inner: string, xfrmXml: string) =>
      `<p:grpSp><p:nvGrpSpPr><p:cNvPr id="${id}" name="G${id}"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      `<p:grpSpPr>${xfrmXml}</p:grpSpPr>${inner}</p:grpSp>`;
    const inner = group(
      21,
      member,
      '<a:xfrm><a:off x="0" y="0"/><a:ext cx="500" cy="500"/><a:chOff x="0" y="0"/><a:chExt cx="500" cy="500"/></a:xfrm>',
    );
    const outer = group(
      20,
      inner,
      '<a:xfrm><a:off x="1000" y="1000"/><a:ext cx="2000" cy="2000"/><a:chOff x="0" y="0"/><a:chExt cx="1000" cy="1000"/></a:xfrm>',
    );
    const root = parseXml(
      `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
        `<p:grpSpPr/>${outer}</p:spTree></p:cSld></p:sld>`,
    ).root;
    // On the slide the member sits at (1200, 1200) sized 400 × 400; move it to x = 2000 and make it 600 wide.
    const { shape } = run([named('Member', settings({ left: 2000, width: 600 }))], { root });
    const x = child(child(shape('Member')!.element, 'p:spPr')!, 'a:xfrm')!;
    expect(serializeElement(x)).toBe('<a:xfrm><a:off x="500" y="100"/><a:ext cx="300" cy="200"/></a:xfrm>');
  });

  it('sets fill_color as a:solidFill after the geometry and before a:ln, replacing an existing fill', () => {
    const root = slide();
    const body = findShape(spTree(root), { by: 'name', name: 'Body' }).shape!;
    const spPr = child(body.element, 'p:spPr')!;
    spPr.children.splice(2, 0, parseXml('<a:gradFill xmlns:a="x"/>').root);
    const { shape } = run([named('Body', settings({ fillColor: '3366FF' }))], { root });
    const after = child(shape('Body')!.element, 'p:spPr')!;
    expect(childElements(after).map((e) => e.name)).toEqual(['a:xfrm', 'a:prstGeom', 'a:solidFill', 'a:ln']);
    expect(serializeElement(child(after, 'a:solidFill')!)).toBe(
      '<a:solidFill><a:srgbClr val="3366FF"/></a:solidFill>',
    );
    const ranks = childElements(after).map((e) =>
      (SHAPE_PROPERTIES_ORDER as readonly string[]).indexOf(e.name),
    );
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
  });

  it('warns instead of writing a transform an ink content part cannot hold', () => {
    const ink =
      '<p:contentPart r:id="rId9" xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main">' +
      '<p14:nvContentPartPr><p14:cNvPr id="30" name="Ink 1"/><p14:cNvContentPartPr/><p14:nvPr/></p14:nvContentPartPr>' +
      '<p14:xfrm><a:off x="1" y="1"/><a:ext cx="1" cy="1"/></p14:xfrm></p:contentPart>';
    const root = parseXml(
      `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
        `<p:grpSpPr/>${ink}</p:spTree></p:cSld></p:sld>`,
    ).root;
    const before = serializeElement(root);
    const { warnings } = run([named('Ink 1', settings({ left: 5, top: 5, width: 5, height: 5 }))], { root });
    expect(serializeElement(root)).toBe(before);
    expect(warnings[0]!.message).toContain('cannot be moved');
  });

  it('warns that fill_color is not applied to a table frame', () => {
    const { warnings } = run([named('Table 4', settings({ fillColor: 'FF0000' }))]);
    expect(warnings[0]!.message).toContain('fill_color is not applied');
  });
});

describe('applyShapeRequests: content', () => {
  it('fills text in both branches of an AlternateContent shape', () => {
    const { root } = run([named('Alt', { content: str('both') })]);
    const alts = [...descendants(root, 'p:sp')].filter((sp) => textContent(sp).includes('both'));
    expect(alts).toHaveLength(2);
  });

  it('gives a text-less auto-shape a txBody in schema place (after p:style)', () => {
    const { shape } = run([named('Bare', { content: str('now with text') })]);
    const el = shape('Bare')!.element;
    expect(childElements(el).map((e) => e.name)).toEqual(['p:nvSpPr', 'p:spPr', 'p:style', 'p:txBody']);
    expect(textContent(el)).toBe('now with text');
  });

  it('creates one hyperlink relationship per distinct URL on the slide', () => {
    const link = {
      kind: 'text' as const,
      fromRuns: true,
      paragraphs: [{ props: {}, runs: [{ text: 'a', props: { hyperlink: 'https://a.example' } }] }],
    };
    const { links } = run([named('Title 1', { content: link }), named('Grouped', { content: link })]);
    expect(links).toEqual(['https://a.example']);
  });

  it.each([
    ['Table 4', str('x'), 'shape "Table 4" is a table but content is text; a table takes an array of rows'],
    ['Chart 5', str('x'), 'shape "Chart 5" is a chart but content is text'],
    [
      'Diagram 6',
      { kind: 'chart', categories: [], series: [] } as ShapeContent,
      'shape "Diagram 6" is a SmartArt graphic but content is a chart; a SmartArt graphic takes an array of strings',
    ],
    ['Group 8', str('x'), 'shape "Group 8" is a group but content is text; a group takes no content itself'],
    [
      'Picture 7',
      { kind: 'text', fromRuns: true, paragraphs: [] } as ShapeContent,
      'shape "Picture 7" is a picture but content is text',
    ],
    [
      'Body',
      { kind: 'table', rows: [], overflow: 'warn', headerRows: null, unspecifiedCells: null } as ShapeContent,
      'shape "Body" is a text shape but content is a table',
    ],
    [
      'Body',
      { kind: 'chart', categories: [], series: [] } as ShapeContent,
      'shape "Body" is a text shape but content is a chart',
    ],
    [
      'Table 4',
      { kind: 'chart', categories: [], series: [] } as ShapeContent,
      'shape "Table 4" is a table but content is a chart',
    ],
  ])('refuses content that does not fit: %s', (name, content, message) => {
    const entry = named(name, { content });
    const error = caught(() => run([entry]));
    expect(error.code).toBe('CONTENT_MISMATCH');
    expect(error.path).toBe(`${entry.path}.content`);
    expect(error.message).toContain(message);
  });

  it.each([
    [
      'Table 4',
      { kind: 'table', rows: [], overflow: 'warn', headerRows: null, unspecifiedCells: null } as ShapeContent,
      'table',
    ],
    ['Chart 5', { kind: 'chart', categories: [], series: [] } as ShapeContent, 'chart'],
    ['Picture 7', { kind: 'picture', source: 'a.png', fit: 'contain' } as ShapeContent, 'picture'],
    ['Picture 7', str('logo.png'), 'picture'],
  ])('hands %s to the filler of its kind, with the content path', (name, content, kind) => {
    const entry = named(name, { content });
    const { rich } = run([entry]);
    expect(rich).toEqual([{ shape: name, kind, content, path: `${entry.path}.content` }]);
  });

  it('hands a picture for a text shape to the picture filler (as its fill), with the path of the field sent', () => {
    const content = { kind: 'picture', source: 'a.png', fit: 'cover' } as ShapeContent;
    const entry = named('Body', { content, contentField: 'filename' });
    expect(run([entry]).rich).toEqual([
      { shape: 'Body', kind: 'text', content, path: `${entry.path}.filename` },
    ]);
  });
});
