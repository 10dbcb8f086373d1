import { expect, it } from 'vitest';
import { describeCorpus, readCorpus } from '../../../test/support/corpus/corpus.js';
import { expectValidPptx } from '../../../test/support/checks/expect-valid-pptx.js';
import { checkPackageInvariantsAgainst } from '../../../test/support/checks/package-invariants.js';
import { CT } from './content-types.js';
import { OpcPackage } from './opc-package.js';
import { PackageBuilder } from './package-builder.js';
import { REL, relativeTarget, resolveTarget } from './relationships.js';

/** ShapeCrawler/021.pptx: slide1 has a notes slide and chart1 (workbook, implicit style1/colors1); slide2's chart3 has a drawing and a theme override. */
const DECK = 'ShapeCrawler/021.pptx';
const SLIDE1_OWNED = [
  '/ppt/slides/slide1.xml',
  '/ppt/notesSlides/notesSlide1.xml',
  '/ppt/charts/chart1.xml',
  '/ppt/charts/chart2.xml',
  '/ppt/charts/style1.xml',
  '/ppt/charts/colors1.xml',
  '/ppt/embeddings/Microsoft_Excel_Worksheet.xlsx',
];

function open(file = DECK): { template: Uint8Array; pkg: OpcPackage } {
  const template = readCorpus(file);
  return { template, pkg: OpcPackage.open(template) };
}

/** Drops slide 1 the way the presentation module does: its sldId (and section entry), then its relationship. */
function dropSlide1(builder: PackageBuilder, pkg: OpcPackage): void {
  const rels = builder.relationships(pkg.mainPartName);
  const index = rels.findIndex(
    (rel) =>
      rel.type === REL.slide && resolveTarget(pkg.mainPartName, rel.target) === '/ppt/slides/slide1.xml',
  );
  const [rel] = rels.splice(index, 1);
  const xml = pkg
    .text(pkg.mainPartName)
    .replace(`<p:sldId id="262" r:id="${rel!.id}"/>`, '')
    .replace('<p14:sldId id="262"/>', '');
  expect(xml).not.toContain('id="262"');
  builder.setPart(pkg.mainPartName, xml);
}

describeCorpus('PackageBuilder.build prunes by walking relationships', () => {
  it('keeps implicitly related parts: slide→notesSlide, chart→style/colors, chart→userShapes/themeOverride', () => {
    const { pkg } = open();
    const out = OpcPackage.open(new PackageBuilder(pkg).build());
    for (const name of [...SLIDE1_OWNED, '/ppt/drawings/drawing1.xml', '/ppt/theme/themeOverride1.xml'])
      expect(out.has(name), name).toBe(true);
  });

  it('removes the parts only a removed relationship reached, and keeps what other paths still reach', async () => {
    const { template, pkg } = open();
    const builder = new PackageBuilder(pkg);
    dropSlide1(builder, pkg);
    const output = builder.build();
    const out = OpcPackage.open(output);
    for (const name of SLIDE1_OWNED) expect(out.has(name), `${name} pruned`).toBe(false);
    expect(out.has('/ppt/slides/_rels/slide1.xml.rels')).toBe(false);
    expect(out.has('/ppt/charts/_rels/chart1.xml.rels')).toBe(false);
    for (const name of [
      '/ppt/notesMasters/notesMaster1.xml',
      '/ppt/slideLayouts/slideLayout1.xml',
      '/ppt/charts/chart3.xml',
      '/ppt/drawings/drawing1.xml',
    ]) {
      expect(out.has(name), `${name} kept`).toBe(true);
    }
    const types = new TextDecoder().decode(out.archive.inflate('[Content_Types].xml'));
    expect(types).not.toContain('/ppt/slides/slide1.xml'); // no Override for a part that is gone
    expect(checkPackageInvariantsAgainst(output, template)).toEqual([]);
    await expectValidPptx(output, template);
  }, 240_000); // the validator needs about a minute for this deck and its output

  it('keeps unreachable parts with prune: false', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    dropSlide1(builder, pkg);
    const out = OpcPackage.open(builder.build({ prune: false }));
    for (const name of SLIDE1_OWNED) expect(out.has(name)).toBe(true);
  });

  it('drops a new part that no relationship reaches, and keeps it once one does', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    builder.setPart('/ppt/media/image99.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(OpcPackage.open(builder.build()).has('/ppt/media/image99.png')).toBe(false);
    builder
      .relationships('/ppt/slides/slide2.xml')
      .push({ id: 'rId99', type: REL.image, target: '../media/image99.png', external: false });
    expect(OpcPackage.open(builder.build()).has('/ppt/media/image99.png')).toBe(true);
  });

  it('follows percent-encoded targets to part names with spaces or non-ASCII characters', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    builder.setPart('/ppt/media/bild 1ü.png', new Uint8Array([1, 2, 3]), 'image/png');
    const target = relativeTarget('/ppt/slides/slide2.xml', '/ppt/media/bild 1ü.png');
    expect(target).toBe('../media/bild%201%C3%BC.png');
    builder
      .relationships('/ppt/slides/slide2.xml')
      .push({ id: 'rId98', type: REL.image, target, external: false });
    const out = OpcPackage.open(builder.build());
    expect(out.partNames()).toContain('/ppt/media/bild 1ü.png');
    expect(out.has('/ppt/media/bild%201%C3%BC.png')).toBe(true);
    expect(out.archive.entries.get('ppt/media/bild 1ü.png')!.flags & 0x0800).toBe(0x0800);
  });

  it('never follows External targets', () => {
    const { pkg } = open();
    const external = pkg.relationships('/ppt/charts/chart2.xml').find((rel) => rel.external);
    expect(external?.target).toMatch(/^file:/);
    const out = OpcPackage.open(new PackageBuilder(pkg).build());
    expect(out.relationships('/ppt/charts/chart2.xml')).toEqual(pkg.relationships('/ppt/charts/chart2.xml'));
  });
});

describeCorpus('PackageBuilder editing', () => {
  it('setPart adds a part with an Override, omitting it where a Default covers the type (media)', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    const name = builder.freeName((n) => `/ppt/slides/slide${n}.xml`);
    expect(name).toBe('/ppt/slides/slide5.xml');
    builder.setPart(name, pkg.text('/ppt/slides/slide4.xml'), CT.slide);
    builder.setRelationships(name, [...pkg.relationships('/ppt/slides/slide4.xml')]);
    builder.setPart('/ppt/media/image50.png', new Uint8Array(16), 'image/png');
    const pres = builder.relationships(pkg.mainPartName);
    pres.push({
      id: 'rId900',
      type: REL.slide,
      target: relativeTarget(pkg.mainPartName, name),
      external: false,
    });
    builder
      .relationships(name)
      .push({ id: 'rId900', type: REL.image, target: '../media/image50.png', external: false });
    const out = OpcPackage.open(builder.build());
    expect(out.contentTypes.overrideFor(name)).toBe(CT.slide);
    expect(out.contentTypes.overrideFor('/ppt/media/image50.png')).toBeUndefined();
    expect(out.contentTypes.typeOf('/ppt/media/image50.png')).toBe('image/png');
    expect(out.text(name)).toBe(pkg.text('/ppt/slides/slide4.xml'));
    expect(out.relationships(name).map((rel) => rel.target)).toEqual([
      '../slideLayouts/slideLayout6.xml',
      '../media/image50.png',
    ]);
    expect(out.archive.entries.get('ppt/media/image50.png')?.method).toBe(0); // media stored
    expect(out.archive.entries.get('ppt/slides/slide5.xml')?.method).toBe(8); // XML deflated
  });

  it('freeName gives the lowest free name as parts are added and removed', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    const slide = (n: number) => `/ppt/slides/slide${n}.xml`;
    expect(builder.freeName(slide)).toBe(slide(5));
    expect(builder.freeName(slide)).toBe(slide(5)); // not taken until set
    builder.setPart(slide(5), '<p:sld/>');
    expect(builder.freeName(slide)).toBe(slide(6));
    expect(builder.freeName((n) => `/PPT/SLIDES/SLIDE${n}.XML`)).toBe('/PPT/SLIDES/SLIDE6.XML');
    expect(builder.freeName(slide, 10)).toBe(slide(10));
    builder.removePart(slide(2));
    expect(builder.freeName(slide)).toBe(slide(2));
  });

  it('removePart removes the part, its rels part and its Override', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    builder.removePart('/ppt/charts/chart3.xml');
    expect(builder.has('/PPT/charts/chart3.xml')).toBe(false);
    expect(builder.contentTypes.overrideFor('/ppt/charts/chart3.xml')).toBeUndefined();
    const out = OpcPackage.open(builder.build({ prune: false }));
    expect(out.has('/ppt/charts/chart3.xml')).toBe(false);
    expect(out.has('/ppt/charts/_rels/chart3.xml.rels')).toBe(false);
  });

  it('copyPart copies the compressed bytes of a part, also from another template', () => {
    const { pkg } = open();
    const other = OpcPackage.open(readCorpus('pptx-automizer/SlideWithImages.pptx'));
    const builder = new PackageBuilder(pkg);
    const media = other.partNames().find((name) => name.startsWith('/ppt/media/'))!;
    const name = builder.freeName((n) => `/ppt/media/copied${n}.png`);
    builder.copyPart(other, media, name);
    builder.relationships('/ppt/slides/slide2.xml').push({
      id: 'rId77',
      type: REL.image,
      target: relativeTarget('/ppt/slides/slide2.xml', name),
      external: false,
    });
    const out = OpcPackage.open(builder.build());
    expect(
      Buffer.compare(out.archive.rawData(name.slice(1)), other.archive.rawData(other.itemOf(media)!)),
    ).toBe(0);
  });

  it('a replaced part keeps its relationships; a working copy is independent of the template', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    builder.setPart(
      '/ppt/slides/slide3.xml',
      pkg.text('/ppt/slides/slide3.xml').replace('</p:sld>', '<!-- edited --></p:sld>'),
    );
    builder.relationships('/ppt/slides/slide2.xml').pop();
    expect(pkg.relationships('/ppt/slides/slide2.xml')).toHaveLength(3);
    const out = OpcPackage.open(builder.build({ prune: false }));
    expect(out.relationships('/ppt/slides/slide3.xml')).toEqual(pkg.relationships('/ppt/slides/slide3.xml'));
    expect(out.relationships('/ppt/slides/slide2.xml')).toHaveLength(2);
    expect(out.text('/ppt/slides/slide3.xml')).toContain('<!-- edited -->');
  });

  it('gives every written part a content type, adding a Default for an untyped extension', () => {
    const { pkg } = open();
    const builder = new PackageBuilder(pkg);
    builder.setPart('/ppt/media/media1.m4a', new Uint8Array(8));
    builder
      .relationships('/ppt/slides/slide2.xml')
      .push({ id: 'rId66', type: REL.audio, target: '../media/media1.m4a', external: false });
    expect(OpcPackage.open(builder.build()).contentTypes.typeOf('/ppt/media/media1.m4a')).toBe('audio/mp4');
  });

  it('is deterministic: the same edits give the same bytes', () => {
    const { pkg } = open();
    const build = () => {
      const builder = new PackageBuilder(pkg);
      dropSlide1(builder, pkg);
      return builder.build();
    };
    expect(Buffer.compare(build(), build())).toBe(0);
  });
});
