import { describe, expect, it } from 'vitest';
import { child, parseXml, type XmlElement } from '../xml/index.js';
import { findShape, listShapes } from './find-shape.js';

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" ' +
  'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"';

function spTree(shapes: string): XmlElement {
  const root = parseXml(
    `<p:sld ${NS}><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
      `<p:grpSpPr/>${shapes}</p:spTree></p:cSld></p:sld>`,
  ).root;
  return child(child(root, 'p:cSld')!, 'p:spTree')!;
}

const sp = (id: number, name: string, inner = '<p:txBody><a:bodyPr/><a:p/></p:txBody>', nvPr = '') =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr/><p:nvPr>${nvPr}</p:nvPr></p:nvSpPr><p:spPr/>${inner}</p:sp>`;
const frame = (id: number, name: string, uri: string) =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="${name}"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` +
  `<p:xfrm><a:off x="0" y="0"/><a:ext cx="10" cy="10"/></p:xfrm><a:graphic><a:graphicData uri="${uri}"/></a:graphic></p:graphicFrame>`;
const pic = (id: number, name: string, nvPr = '') =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"/><p:cNvPicPr/><p:nvPr>${nvPr}</p:nvPr></p:nvPicPr><p:blipFill/><p:spPr/></p:pic>`;

describe('listShapes', () => {
  it('lists every shape in document order with its kind, id, name and placeholder', () => {
    const tree = spTree(
      sp(2, 'Title 1', undefined, '<p:ph type="title"/>') +
        sp(3, 'Content 2', undefined, '<p:ph idx="1"/>') +
        sp(4, 'Picture Placeholder 3', '', '<p:ph type="pic" idx="13"/>') +
        pic(5, 'Logo') +
        pic(6, 'Clip', '<a:videoFile r:link="rId3"/>') +
        frame(7, 'Table 4', 'http://schemas.openxmlformats.org/drawingml/2006/table') +
        frame(8, 'Chart 5', 'http://schemas.openxmlformats.org/drawingml/2006/chart') +
        frame(9, 'Diagram 6', 'http://schemas.openxmlformats.org/drawingml/2006/diagram') +
        frame(10, 'Object 7', 'http://schemas.openxmlformats.org/presentationml/2006/ole') +
        '<p:cxnSp><p:nvCxnSpPr><p:cNvPr id="11" name="Connector 8"/><p:cNvCxnSpPr/><p:nvPr/></p:nvCxnSpPr><p:spPr/></p:cxnSp>' +
        sp(12, 'Rectangle 9', ''),
    );
    const shapes = listShapes(tree);
    expect(shapes.map((s) => [s.id, s.name, s.kind])).toEqual([
      [2, 'Title 1', 'text'],
      [3, 'Content 2', 'text'],
      [4, 'Picture Placeholder 3', 'picture'],
      [5, 'Logo', 'picture'],
      [6, 'Clip', 'media'],
      [7, 'Table 4', 'table'],
      [8, 'Chart 5', 'chart'],
      [9, 'Diagram 6', 'smartart'],
      [10, 'Object 7', 'ole'],
      [11, 'Connector 8', 'connector'],
      [12, 'Rectangle 9', 'text'],
    ]);
    expect(shapes[0]!.placeholder).toEqual({ type: 'title', idx: null });
    // A p:ph without @type is an object placeholder (ST_PlaceholderType default).
    expect(shapes[1]!.placeholder).toEqual({ type: 'obj', idx: 1 });
    expect(shapes[2]!.placeholder).toEqual({ type: 'pic', idx: 13 });
    expect(shapes[3]!.placeholder).toBeNull();
    expect(shapes.every((s) => s.parent === tree)).toBe(true);
  });

  it('recurses into groups, listing the group before its members, with the group as their parent', () => {
    const tree = spTree(
      sp(2, 'Before') +
        '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="3" name="Group 1"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
        sp(4, 'Inner A') +
        '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="5" name="Group 2"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
        pic(6, 'Deep') +
        '</p:grpSp></p:grpSp>' +
        sp(7, 'After'),
    );
    const shapes = listShapes(tree);
    expect(shapes.map((s) => `${s.name}:${s.kind}`)).toEqual([
      'Before:text',
      'Group 1:group',
      'Inner A:text',
      'Group 2:group',
      'Deep:picture',
      'After:text',
    ]);
    const group1 = shapes[1]!.element;
    expect(shapes[2]!.parent).toBe(group1);
    expect(shapes[4]!.parent).toBe(shapes[3]!.element);
  });

  it('lists a shape inside mc:AlternateContent once, as the AlternateContent, with the Choice shape’s kind', () => {
    const tree = spTree(
      '<mc:AlternateContent><mc:Choice Requires="cx1">' +
        frame(4, 'Chart 3', 'http://schemas.microsoft.com/office/drawing/2014/chartex') +
        `</mc:Choice><mc:Fallback>${pic(4, 'Chart 3')}</mc:Fallback></mc:AlternateContent>`,
    );
    const shapes = listShapes(tree);
    expect(shapes).toHaveLength(1);
    expect(shapes[0]!.element.name).toBe('mc:AlternateContent');
    expect(shapes[0]!.kind).toBe('chart');
    expect(shapes[0]!.id).toBe(4);
    expect(shapes[0]!.parent).toBe(tree);
  });

  it('reads content parts (p14:cNvPr) and keeps them as other', () => {
    const tree = spTree(
      '<p:contentPart r:id="rId2" xmlns:p14="http://schemas.microsoft.com/office/powerpoint/2010/main">' +
        '<p14:nvContentPartPr><p14:cNvPr id="9" name="Ink 8"/><p14:cNvContentPartPr/><p14:nvPr/></p14:nvContentPartPr></p:contentPart>',
    );
    expect(listShapes(tree).map((s) => [s.id, s.name, s.kind])).toEqual([[9, 'Ink 8', 'other']]);
  });
});

describe('findShape', () => {
  const tree = spTree(
    sp(2, 'Title 1') +
      sp(3, 'Box') +
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="4" name="Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>' +
      sp(5, 'Box') +
      sp(6, 'Grouped Label') +
      '</p:grpSp>',
  );

  it('finds by exact name, also inside groups', () => {
    const { shape, sameNameCount } = findShape(tree, { by: 'name', name: 'Grouped Label' });
    expect(shape?.id).toBe(6);
    expect(shape?.parent.name).toBe('p:grpSp');
    expect(sameNameCount).toBe(1);
  });

  it('returns the first of several shapes sharing a name and how many share it', () => {
    const { shape, sameNameCount } = findShape(tree, { by: 'name', name: 'Box' });
    expect(shape?.id).toBe(3);
    expect(sameNameCount).toBe(2);
  });

  it('finds by shape id', () => {
    expect(findShape(tree, { by: 'id', id: 5 }).shape?.name).toBe('Box');
    expect(findShape(tree, { by: 'id', id: 5 }).shape?.parent.name).toBe('p:grpSp');
  });

  it('finds nothing for an unknown name or id (names are case-sensitive)', () => {
    expect(findShape(tree, { by: 'name', name: 'title 1' })).toEqual({ shape: undefined, sameNameCount: 0 });
    expect(findShape(tree, { by: 'id', id: 99 }).shape).toBeUndefined();
  });
});
