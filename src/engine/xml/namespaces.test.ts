import { describe, expect, it } from 'vitest';
import { checkXml, locateAttribute, parseXml, serializeXml } from './index.js';

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MC = 'http://schemas.openxmlformats.org/markup-compatibility/2006';
const P14 = 'http://schemas.microsoft.com/office/powerpoint/2010/main';
const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

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
