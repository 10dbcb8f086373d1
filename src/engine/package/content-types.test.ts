import { describe, expect, it } from 'vitest';
import { CT, ContentTypes } from './content-types.js';
import { freePartName } from './part-names.js';

const SOURCE =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="PNG" ContentType="image/png"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/ppt/presentation.xml" ContentType="${CT.presentationMain}"/>` +
  `<Override PartName="/ppt/slides/slide1.xml" ContentType="${CT.slide}"/>` +
  `<Override PartName="/ppt/slides/slide9.xml" ContentType="${CT.slide}"/>` +
  '</Types>';

describe('ContentTypes', () => {
  it('resolves Override by part name, else Default by extension, both case-insensitively', () => {
    const types = ContentTypes.parse(SOURCE);
    expect(types.typeOf('/PPT/Slides/SLIDE1.XML')).toBe(CT.slide);
    expect(types.typeOf('/ppt/media/image1.png')).toBe('image/png');
    expect(types.typeOf('/ppt/media/image11.PNG')).toBe('image/png');
    expect(types.typeOf('/ppt/slides/slide2.xml')).toBe('application/xml');
    expect(types.typeOf('/ppt/media/video.mp4')).toBeUndefined();
  });

  it('serialize drops Overrides for parts that are not in the package, and spells names as the package does', () => {
    const xml = ContentTypes.parse(SOURCE).serialize([
      '/ppt/presentation.xml',
      '/PPT/slides/slide1.xml',
      '/ppt/media/image1.png',
    ]);
    expect(xml).not.toContain('slide9.xml');
    expect(xml).toContain('<Override PartName="/PPT/slides/slide1.xml"');
    expect(xml).toContain('<Default Extension="PNG" ContentType="image/png"/>');
    expect(ContentTypes.parse(xml).typeOf('/ppt/slides/slide1.xml')).toBe(CT.slide);
  });

  it('never writes an Override for /[Content_Types].xml', () => {
    const types = ContentTypes.parse(SOURCE);
    types.setOverride('/[Content_Types].xml', 'application/xml');
    expect(types.serialize(['/[Content_Types].xml', '/ppt/presentation.xml'])).not.toContain('Content_Types');
  });

  it('setOverride, removeOverride and assign (no Override where the Default already says it)', () => {
    const types = ContentTypes.parse(SOURCE);
    types.setOverride('/ppt/slides/slide2.xml', CT.slide);
    expect(types.typeOf('/ppt/SLIDES/slide2.xml')).toBe(CT.slide);
    types.removeOverride('/PPT/slides/slide2.xml');
    expect(types.typeOf('/ppt/slides/slide2.xml')).toBe('application/xml');
    types.assign('/ppt/media/image5.png', 'image/png');
    expect(types.overrideFor('/ppt/media/image5.png')).toBeUndefined();
    types.assign('/ppt/slides/slide3.xml', CT.slide);
    expect(types.overrideFor('/ppt/slides/slide3.xml')).toBe(CT.slide);
  });

  it('ensureDefault adds a missing Default and reports a conflicting one', () => {
    const types = ContentTypes.parse(SOURCE);
    expect(types.ensureDefault('JPEG', 'image/jpeg')).toBe(true);
    expect(types.typeOf('/ppt/media/a.jpeg')).toBe('image/jpeg');
    expect(types.ensureDefault('png', 'image/png')).toBe(true);
    expect(types.ensureDefault('xml', CT.slide)).toBe(false);
    expect(types.typeOf('/ppt/slides/slide2.xml')).toBe('application/xml');
  });

  it('clone is independent of the original', () => {
    const original = ContentTypes.parse(SOURCE);
    const copy = original.clone();
    copy.setOverride('/ppt/slides/slide5.xml', CT.slide);
    copy.removeOverride('/ppt/slides/slide1.xml');
    expect(original.overrideFor('/ppt/slides/slide5.xml')).toBeUndefined();
    expect(original.typeOf('/ppt/slides/slide1.xml')).toBe(CT.slide);
  });
});

describe('freePartName', () => {
  const taken = new Set(['/ppt/slides/slide1.xml', '/ppt/slides/slide2.xml', '/ppt/media/image1.png']);
  const has = (lower: string) => taken.has(lower);

  it('returns the lowest free number, scanning case-insensitively', () => {
    expect(freePartName(has, (n) => `/ppt/slides/slide${n}.xml`)).toBe('/ppt/slides/slide3.xml');
    expect(freePartName(has, (n) => `/PPT/media/image${n}.PNG`)).toBe('/PPT/media/image2.PNG');
    expect(freePartName(has, (n) => `/ppt/slides/slide${n}.xml`, 10)).toBe('/ppt/slides/slide10.xml');
    expect(freePartName(has, (n) => `/ppt/charts/chart${n}.xml`)).toBe('/ppt/charts/chart1.xml');
  });
});
