import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.js';
import { checkXml, child, element, locateAttribute, parseXml, serializeXml } from './index.js';

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const P14 = 'http://schemas.microsoft.com/office/powerpoint/2010/main';
const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const XML = 'http://www.w3.org/XML/1998/namespace';
const X14AC = 'http://schemas.microsoft.com/office/spreadsheetml/2009/9/ac';

describe('namespace prefixes are canonical after parsing', () => {
  it('leaves a part that already uses the canonical prefixes exactly as written', () => {
    const xml = `<p:sld xmlns:p="${P}" xmlns:a="${A}" xmlns:x15="urn:other"><p:cSld><a:t x15:k="1">Hi</a:t></p:cSld></p:sld>`;
    expect(serializeXml(parseXml(xml))).toBe(xml);
  });

  it('renames elements, attributes, declarations and mc prefix lists; swapped prefixes trade places', () => {
    // The producer bound "a" to PresentationML and "p" to DrawingML, and "q" to the p14 extension namespace.
    const xml =
      `<a:sld xmlns:a="${P}" xmlns:p="${A}" xmlns:rel="${R}" xmlns:m="${MC}" xmlns:q="${P14}" m:Ignorable="q">` +
      `<a:cSld><p:t rel:id="rId1">Hi</p:t><m:AlternateContent><m:Choice Requires="q"><q:x/></m:Choice></m:AlternateContent></a:cSld></a:sld>`;
    expect(serializeXml(parseXml(xml))).toBe(
      `<p:sld xmlns:p="${P}" xmlns:a="${A}" xmlns:r="${R}" xmlns:mc="${MC}" xmlns:p14="${P14}" mc:Ignorable="p14">` +
        `<p:cSld><a:t r:id="rId1">Hi</a:t><mc:AlternateContent><mc:Choice Requires="p14"><p14:x/></mc:Choice></mc:AlternateContent></p:cSld></p:sld>`,
    );
  });

  it('moves an unknown namespace off a reserved prefix, and collapses a namespace declared twice', () => {
    const xml = `<z:sld xmlns:z="${P}" xmlns:p="urn:other" xmlns:zz="${P}"><zz:cSld p:k="1"><p:e/></zz:cSld></z:sld>`;
    expect(serializeXml(parseXml(xml))).toBe(
      `<p:sld xmlns:p="${P}" xmlns:ns1="urn:other"><p:cSld ns1:k="1"><ns1:e/></p:cSld></p:sld>`,
    );
  });

  it('puts SpreadsheetML in the default namespace, declarations made below the root included', () => {
    const xml = `<xns:worksheet xmlns:xns="${S}"><xns:sheetData><xns:row r="1"><c xmlns="${S}" r="A1"/></xns:row></xns:sheetData></xns:worksheet>`;
    expect(serializeXml(parseXml(xml))).toBe(
      `<worksheet xmlns="${S}"><sheetData><row r="1"><c r="A1"/></row></sheetData></worksheet>`,
    );
  });

  it('gives checkXml the canonical root, and refuses to locate by name in a part with other prefixes', () => {
    const xml = `<s:sld xmlns:s="${P}" xmlns:e="${P14}"><s:extLst><s:ext><e:creationId val="7"/></s:ext></s:extLst></s:sld>`;
    expect(checkXml(xml).name).toBe('p:sld');
    expect(locateAttribute(xml, 'slide', 'p14:creationId', 'val')).toBeNull();
    const canonical = serializeXml(parseXml(xml));
    expect(locateAttribute(canonical, 'slide', 'p14:creationId', 'val')).toHaveLength(1);
  });
});

describe('the serializer declares every prefix it writes', () => {
  it('declares a prefix on the element the engine adds where the template declared it per element', () => {
    // Some .NET tools declare r on each p:sldId instead of on the root.
    const doc = parseXml(
      `<p:presentation xmlns:p="${P}"><p:sldIdLst><p:sldId id="256" r:id="rId2" xmlns:r="${R}"/></p:sldIdLst></p:presentation>`,
    );
    child(doc.root, 'p:sldIdLst')!.children.push(element('p:sldId', { id: '257', 'r:id': 'rId9' }));
    expect(serializeXml(doc)).toBe(
      `<p:presentation xmlns:p="${P}"><p:sldIdLst><p:sldId id="256" r:id="rId2" xmlns:r="${R}"/>` +
        `<p:sldId id="257" r:id="rId9" xmlns:r="${R}"/></p:sldIdLst></p:presentation>`,
    );
  });

  it('binds a prefix the part declares elsewhere as the part does, and an unknown element prefix too', () => {
    const doc = parseXml(
      `<worksheet xmlns="${S}"><sheetData><row r="1" x14ac:dyDescent="0.25" xmlns:x14ac="${X14AC}"/></sheetData></worksheet>`,
    );
    const sheetData = child(doc.root, 'sheetData')!;
    sheetData.children.push(element('row', { r: '2', 'x14ac:dyDescent': '0.3' }));
    sheetData.children.push(element('a:t'));
    const written = serializeXml(doc);
    expect(written).toContain(`<row r="2" x14ac:dyDescent="0.3" xmlns:x14ac="${X14AC}"/>`);
    expect(written).toContain(`<a:t xmlns:a="${A}"/>`);
    // In scope from an ancestor: nothing more is written.
    expect(
      serializeXml(parseXml(`<p:sld xmlns:p="${P}" xmlns:a="${A}"><p:cSld><a:t/></p:cSld></p:sld>`)),
    ).toBe(`<p:sld xmlns:p="${P}" xmlns:a="${A}"><p:cSld><a:t/></p:cSld></p:sld>`);
  });

  it('keeps an explicit xmlns:xml as written and never binds another prefix to the XML namespace', () => {
    // Some Go tools: the xml prefix declared, PresentationML as the default namespace.
    const xml = `<sld xmlns="${P}" xmlns:xml="${XML}" xmlns:a="${A}"><cSld><a:t xml:space="preserve"> x</a:t></cSld></sld>`;
    expect(serializeXml(parseXml(xml))).toBe(
      `<p:sld xmlns:p="${P}" xmlns:xml="${XML}" xmlns:a="${A}"><p:cSld><a:t xml:space="preserve"> x</a:t></p:cSld></p:sld>`,
    );
  });

  it.each([
    [`xmlns:x="${XML}"`, /only the xml prefix/],
    ['xmlns:xml="urn:other"', /only the xml prefix/],
    ['xmlns:xmlns="urn:other"', /reserved xmlns/],
    ['xmlns:q="http://www.w3.org/2000/xmlns/"', /reserved xmlns/],
    ['xmlns:q=""', /undeclares a prefix/],
  ])('refuses a part that binds reserved names (%s) as an invalid template', (declaration, message) => {
    for (const parse of [parseXml, checkXml]) {
      try {
        parse(`<p:sld xmlns:p="${P}"><p:cSld ${declaration}/></p:sld>`, '/ppt/slides/slide3.xml');
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(EngineError);
        expect(error).toMatchObject({ code: 'INVALID_TEMPLATE', path: '/ppt/slides/slide3.xml' });
        expect((error as Error).message).toMatch(message);
      }
    }
  });
});
