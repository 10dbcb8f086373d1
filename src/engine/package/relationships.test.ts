import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.js';
import {
  REL,
  parseRelationships,
  relativeTarget,
  relsPartName,
  resolveTarget,
  serializeRelationships,
  sourcePartOfRels,
  type Relationship,
} from './relationships.js';

describe('relsPartName / sourcePartOfRels', () => {
  it.each([
    ['/ppt/slides/slide1.xml', '/ppt/slides/_rels/slide1.xml.rels'],
    ['/ppt/presentation.xml', '/ppt/_rels/presentation.xml.rels'],
    ['/', '/_rels/.rels'],
    ['/docProps/app.xml', '/docProps/_rels/app.xml.rels'],
  ])('%s <-> %s', (part, rels) => {
    expect(relsPartName(part)).toBe(rels);
    expect(sourcePartOfRels(rels)).toBe(part);
  });

  it('says a part that is not a rels part has no source', () => {
    expect(sourcePartOfRels('/ppt/slides/slide1.xml')).toBeNull();
    expect(sourcePartOfRels('/ppt/slides/x.rels')).toBeNull();
  });
});

describe('resolveTarget', () => {
  it.each([
    ['/ppt/slides/slide1.xml', '../media/image1.png', '/ppt/media/image1.png'],
    ['/ppt/slides/slide1.xml', '../slideLayouts/slideLayout2.xml', '/ppt/slideLayouts/slideLayout2.xml'],
    ['/ppt/presentation.xml', 'slides/slide1.xml', '/ppt/slides/slide1.xml'],
    ['/ppt/presentation.xml', './theme/theme1.xml', '/ppt/theme/theme1.xml'],
    ['/', 'ppt/presentation.xml', '/ppt/presentation.xml'],
    ['/', '/ppt/presentation.xml', '/ppt/presentation.xml'],
    // Absolute targets, as ShapeCrawler/031.pptx writes them from slides to customXML items.
    ['/ppt/slides/slide1.xml', '/ppt/customXML/item46.xml', '/ppt/customXML/item46.xml'],
    [
      '/ppt/charts/chart1.xml',
      '../embeddings/Microsoft_Excel_Worksheet1.xlsx',
      '/ppt/embeddings/Microsoft_Excel_Worksheet1.xlsx',
    ],
    ['/ppt/slides/slide1.xml', '../media/image%201.png', '/ppt/media/image 1.png'],
    ['/ppt/slides/slide1.xml', '../media/%E5%9B%BE.png', '/ppt/media/图.png'],
    ['/ppt/slides/slide1.xml', '../../../../x.xml', '/x.xml'],
    ['/ppt/slides/slide1.xml', '..\\media\\image2.png', '/ppt/media/image2.png'],
    ['/ppt/slides/slide1.xml', 'slide2.xml#anchor', '/ppt/slides/slide2.xml'],
  ])('from %s, %s is %s', (source, target, expected) => {
    expect(resolveTarget(source, target)).toBe(expected);
  });
});

describe('relativeTarget', () => {
  it.each([
    ['/ppt/slides/slide1.xml', '/ppt/media/image1.png', '../media/image1.png'],
    ['/ppt/slides/slide1.xml', '/ppt/slides/slide2.xml', 'slide2.xml'],
    ['/ppt/presentation.xml', '/ppt/slides/slide1.xml', 'slides/slide1.xml'],
    ['/', '/ppt/presentation.xml', 'ppt/presentation.xml'],
    ['/ppt/slides/slide1.xml', '/docProps/thumbnail.jpeg', '../../docProps/thumbnail.jpeg'],
    ['/ppt/slides/slide1.xml', '/ppt/media/image 1.png', '../media/image%201.png'],
    ['/ppt/slides/slide1.xml', '/ppt/media/图.png', '../media/%E5%9B%BE.png'],
    ['/ppt/slides/slide1.xml', '/ppt/media/image%201.png', '../media/image%201.png'],
  ])('from %s to %s is %s', (source, target, expected) => {
    expect(relativeTarget(source, target)).toBe(expected);
  });

  it('is the inverse of resolveTarget', () => {
    const parts = [
      '/ppt/slides/slide1.xml',
      '/ppt/media/image1.png',
      '/docProps/app.xml',
      '/ppt/charts/colors3.xml',
      '/a.xml',
    ];
    for (const source of [...parts, '/']) {
      for (const target of parts) expect(resolveTarget(source, relativeTarget(source, target))).toBe(target);
    }
  });
});

describe('parseRelationships / serializeRelationships', () => {
  const rels: Relationship[] = [
    { id: 'rId1', type: REL.slideLayout, target: '../slideLayouts/slideLayout1.xml', external: false },
    { id: 'rId2', type: REL.hyperlink, target: 'https://example.com/?a=1&b="2"<3>', external: true },
    { id: 'rId3', type: REL.image, target: '/ppt/media/image1.png', external: false },
  ];

  it('round-trips, escaping attribute values and keeping TargetMode', () => {
    const xml = serializeRelationships(rels);
    expect(xml).toContain(
      'Target="https://example.com/?a=1&amp;b=&quot;2&quot;&lt;3&gt;" TargetMode="External"',
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>')).toBe(true);
    expect(parseRelationships(xml, '/ppt/slides/slide1.xml')).toEqual(rels);
    expect(parseRelationships(new TextEncoder().encode(xml), '/ppt/slides/_rels/slide1.xml.rels')).toEqual(
      rels,
    );
  });

  it('reads what PowerPoint writes, BOM and attribute order included', () => {
    const xml =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Type="${REL.officeDocument}" Target="ppt/presentation.xml" Id="rId1" /></Relationships>`;
    expect(parseRelationships(xml, '/')).toEqual([
      { id: 'rId1', type: REL.officeDocument, target: 'ppt/presentation.xml', external: false },
    ]);
  });

  it('refuses a DOCTYPE (UNSAFE_XML) and a Relationship without Id, naming the rels part', () => {
    const doctype = '<!DOCTYPE r [<!ENTITY x "y">]><Relationships/>';
    expect(() => parseRelationships(doctype, '/ppt/slides/slide1.xml')).toThrow(EngineError);
    try {
      parseRelationships(
        `<Relationships><Relationship Type="${REL.image}" Target="a.png"/></Relationships>`,
        '/ppt/slides/slide1.xml',
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_TEMPLATE', path: '/ppt/slides/_rels/slide1.xml.rels' });
    }
  });

  it('refuses an element other than Relationship, naming it and the rels part', () => {
    const xml = `<Relationships><Relationship Id="rId1" Type="${REL.image}" Target="a.png"/><x:q xmlns:x="urn:x"/></Relationships>`;
    expect(() => parseRelationships(xml, '/ppt/slides/slide1.xml')).toThrow(
      expect.objectContaining({
        code: 'INVALID_TEMPLATE',
        message: expect.stringContaining('<x:q>'),
        path: '/ppt/slides/_rels/slide1.xml.rels',
      }),
    );
  });

  it('refuses two relationships with one Id, naming the Id and the rels part', () => {
    const twice = `<Relationship Id="rId1" Type="${REL.image}" Target="a.png"/>`;
    expect(() =>
      parseRelationships(`<Relationships>${twice}${twice}</Relationships>`, '/ppt/slides/slide1.xml'),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_TEMPLATE',
        message: expect.stringContaining('"rId1"'),
        path: '/ppt/slides/_rels/slide1.xml.rels',
      }),
    );
  });
});
