/**
 * Prefixes of namespaces used on attributes (docs/powerpoint-rules.md "Namespaces and mc:Ignorable"). A namespace
 * the engine names without a prefix (SpreadsheetML, the package relationships) may also qualify attributes in a
 * producer's part; attributes cannot take the default namespace, so when a part is brought to the engine's
 * prefixes such a namespace must keep a prefix, or its attributes silently lose their namespace. Compared by
 * namespace (`{uri}local`, test/support/decks/namespace-prefixes.ts) before and after a parse and write.
 */
import { describe, expect, it } from 'vitest';
import { parseXml, serializeXml } from '../../../src/engine/xml/index.js';
import { clarkForm } from '../../support/decks/namespace-prefixes.js';

const SHEET = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';

const roundTrip = (xml: string): string => serializeXml(parseXml(xml, 'part.xml'));

describe('namespaces used on attributes', () => {
  it.each([
    [
      'SpreadsheetML under a prefix, on an attribute',
      `<x:worksheet xmlns:x="${SHEET}"><x:sheetData x:mark="1"><x:row r="1"/></x:sheetData></x:worksheet>`,
      `{${SHEET}}mark`,
    ],
    [
      'package relationships under a prefix, on an attribute',
      `<pr:Relationships xmlns:pr="${RELS}"><pr:Relationship Id="rId1" Type="t" Target="a.xml" pr:note="n"/></pr:Relationships>`,
      `{${RELS}}note`,
    ],
  ])('%s keeps its namespace through a parse and write', (_what, xml, attribute) => {
    const written = roundTrip(xml);
    expect(clarkForm(written)).toContain(`${attribute}="`);
    expect(clarkForm(written)).toBe(clarkForm(xml));
    // The one prefix the namespace gets is declared, and is not the default namespace.
    expect(written).toMatch(/^<([A-Za-z][\w.-]*):(worksheet|Relationships) xmlns:\1="/);
  });
});
