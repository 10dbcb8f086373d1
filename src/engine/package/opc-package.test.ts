import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import {
  corpusFiles,
  invalidCorpusFiles,
  itCorpus,
  readCorpus,
} from '../../../test/support/corpus/corpus.js';
import { layoutsTemplate } from '../../../test/support/decks/layouts-template.js';
import {
  docxPackage,
  lyingSizeZipBomb,
  manyEntriesZip,
  nonZipFile,
  plainZip,
  zipBomb,
} from '../../../test/support/decks/hostile-inputs.js';
import { CT } from './content-types.js';
import { OpcPackage } from './opc-package.js';
import { REL } from './relationships.js';

const MiB = 2 ** 20;

const RELS_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A minimal package: content types, package rels to `main`, and the given parts. */
function miniPackage(
  parts: Record<string, Uint8Array>,
  main = 'ppt/presentation.xml',
  mainType: string = CT.presentationMain,
  relType: string = REL.officeDocument,
): Uint8Array {
  const types =
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/>' +
    `<Default Extension="rels" ContentType="${CT.relationships}"/><Override PartName="/${main}" ContentType="${mainType}"/></Types>`;
  const rels = `<Relationships xmlns="${RELS_NS}"><Relationship Id="rId1" Type="${relType}" Target="${main}"/></Relationships>`;
  return zipSync({ '[Content_Types].xml': strToU8(types), '_rels/.rels': strToU8(rels), ...parts });
}

const PRESENTATION = strToU8(
  '<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>',
);

describe('OpcPackage.open refuses what is not a usable presentation', () => {
  for (const file of invalidCorpusFiles()) {
    it(`refuses ${file.file} with INVALID_TEMPLATE`, () => {
      const error = engineErrorOf(() => OpcPackage.open(readCorpus(file)));
      expect(error.code).toBe('INVALID_TEMPLATE');
      if (file.file.includes('encrypted'))
        expect(error.message).toMatch(/password-protected \(encrypted\) presentation: remove the password/);
    });
  }

  for (const file of corpusFiles().filter((f) => f.strict)) {
    it(`refuses the ISO Strict deck ${file.file} with UNSUPPORTED_TEMPLATE`, () => {
      const error = engineErrorOf(() => OpcPackage.open(readCorpus(file)));
      expect(error.code).toBe('UNSUPPORTED_TEMPLATE');
      expect(error.message).toMatch(
        /Strict Open XML is not supported: save the template as 'PowerPoint Presentation \(\.pptx\)'/,
      );
    });
  }

  const cases: [string, () => Uint8Array, RegExp][] = [
    ['a file that is not a zip', nonZipFile, /not a zip/],
    ['a zip without [Content_Types].xml', plainZip, /no \[Content_Types\]\.xml/],
    ['a Word document', docxPackage, /Word document/],
    [
      'an Excel workbook',
      () => miniPackage({ 'xl/workbook.xml': PRESENTATION }, 'xl/workbook.xml', CT.spreadsheetMain),
      /Excel workbook/,
    ],
    [
      'a package without officeDocument relationship',
      () =>
        miniPackage(
          { 'ppt/presentation.xml': PRESENTATION },
          'ppt/presentation.xml',
          CT.presentationMain,
          REL.coreProperties,
        ),
      /no officeDocument relationship/,
    ],
    ['a package whose main part is missing', () => miniPackage({}), /main presentation part is missing/],
  ];
  for (const [what, make, message] of cases) {
    it(`refuses ${what} with INVALID_TEMPLATE`, () => {
      const error = engineErrorOf(() => OpcPackage.open(make()));
      expect(error.code).toBe('INVALID_TEMPLATE');
      expect(error.message).toMatch(message);
    });
  }

  it('refuses a 300 MB zip bomb at open, naming the part and the limit, without inflating it', () => {
    const bomb = zipBomb({ inflatedBytes: 300 * MiB });
    const before = process.memoryUsage().rss;
    const error = engineErrorOf(() => OpcPackage.open(bomb));
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect([error.code, error.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/slides/slide1.xml']);
    expect(error.message).toMatch(/maxEntryBytes/);
  });

  it('refuses a bomb under maxEntryBytes by its compression ratio when the part is read, without inflating it', () => {
    const pkg = OpcPackage.open(zipBomb({ inflatedBytes: 100 * MiB }));
    const before = process.memoryUsage().rss;
    const error = engineErrorOf(() => pkg.bytes('/ppt/slides/slide1.xml'));
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect([error.code, error.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/slides/slide1.xml']);
    expect(error.message).toMatch(/maxCompressionRatio/);
  });

  it('opens a bomb whose headers lie, and refuses the part when it is read, with bounded memory', () => {
    const pkg = OpcPackage.open(lyingSizeZipBomb(256 * MiB, 1024));
    const before = process.memoryUsage().rss;
    const error = engineErrorOf(() => pkg.bytes('/ppt/slides/slide1.xml'));
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * MiB);
    expect([error.code, error.path]).toEqual(['LIMIT_EXCEEDED', '/ppt/slides/slide1.xml']);
  });

  it('refuses 20 000 entries (limit 10 000) with LIMIT_EXCEEDED', () => {
    expect(engineErrorOf(() => OpcPackage.open(manyEntriesZip(20_000))).code).toBe('LIMIT_EXCEEDED');
  });

  it('applies caller limits', () => {
    const deck = layoutsTemplate();
    expect(engineErrorOf(() => OpcPackage.open(deck, { maxEntries: 5 })).code).toBe('LIMIT_EXCEEDED');
    const pkg = OpcPackage.open(deck, { maxTotalBytes: 20_000 });
    const error = engineErrorOf(() => pkg.partNames().forEach((name) => pkg.bytes(name)));
    expect(error.message).toMatch(/maxTotalBytes/);
  });
});

describe('OpcPackage reading', () => {
  itCorpus('opens the largest corpus deck inflating only [Content_Types].xml and /_rels/.rels', () => {
    const largest = corpusFiles()
      .filter((f) => !f.strict)
      .reduce((a, b) => (a.bytes >= b.bytes ? a : b));
    const pkg = OpcPackage.open(readCorpus(largest));
    const expected = ['[Content_Types].xml', '_rels/.rels'].reduce(
      (n, item) => n + pkg.archive.entries.get(item)!.uncompressedSize,
      0,
    );
    expect(pkg.archive.totalInflated).toBe(expected);
    expect(pkg.mainPartName).toBe('/ppt/presentation.xml');
  });

  it('lists part names without [Content_Types].xml, looks them up case-insensitively, and memoises bytes', () => {
    const pkg = OpcPackage.open(layoutsTemplate());
    expect(pkg.partNames()).toContain('/ppt/slides/slide1.xml');
    expect(pkg.partNames()).not.toContain('/[Content_Types].xml');
    expect(pkg.has('/PPT/Slides/Slide1.XML')).toBe(true);
    expect(pkg.has('/ppt/slides/slide99.xml')).toBe(false);
    expect(pkg.bytes('/PPT/slides/slide1.xml')).toBe(pkg.bytes('/ppt/slides/slide1.xml'));
    expect(pkg.text('/ppt/slides/slide1.xml')).toMatch(/^<\?xml/);
    expect(engineErrorOf(() => pkg.bytes('/ppt/slides/slide99.xml'))).toMatchObject({
      code: 'INVALID_TEMPLATE',
      path: '/ppt/slides/slide99.xml',
    });
  });

  it('parses relationships once, and gives [] for a part without a rels part', () => {
    const pkg = OpcPackage.open(layoutsTemplate());
    const rels = pkg.relationships(pkg.mainPartName);
    expect(rels.some((rel) => rel.type === REL.slide)).toBe(true);
    expect(pkg.relationships('/ppt/presentation.xml')).toBe(rels);
    expect(pkg.relationships('/docProps/app.xml')).toEqual([]);
    expect(pkg.relationships('/').find((rel) => rel.type === REL.officeDocument)?.target).toBe(
      'ppt/presentation.xml',
    );
  });

  it('decodes UTF-8 with a BOM and UTF-16 (both byte orders) with a BOM', () => {
    const text = '<p:x>grüße 図</p:x>';
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(le.subarray(2)).swap16();
    const pkg = OpcPackage.open(
      miniPackage({
        'ppt/presentation.xml': PRESENTATION,
        'ppt/a.xml': new Uint8Array(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
        'ppt/b.xml': new Uint8Array(le),
        'ppt/c.xml': new Uint8Array(Buffer.concat([Buffer.from([0xfe, 0xff]), be])),
      }),
    );
    expect([pkg.text('/ppt/a.xml'), pkg.text('/ppt/b.xml'), pkg.text('/ppt/c.xml')]).toEqual([
      text,
      text,
      text,
    ]);
  });

  it('accepts a template (.potx) main part: the presentation module rewrites its type', () => {
    const pkg = OpcPackage.open(
      miniPackage({ 'ppt/presentation.xml': PRESENTATION }, 'ppt/presentation.xml', CT.presentationTemplate),
    );
    expect(pkg.contentTypes.typeOf(pkg.mainPartName)).toBe(CT.presentationTemplate);
  });
});
