/**
 * Pictures (docs/payload-pictures.md): every format in, fitted as asked, stored once, into pictures,
 * placeholders and shapes; and every refusal names the field the user sent. The image preparation step runs
 * before the engine, as it does in the worker thread and the CLI.
 */
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_IMAGE_LIMITS,
  EngineError,
  type GenerateResult,
  type ImageLimits,
} from '../../../src/engine/index.js';
import { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { editPart } from '../../support/decks/package-edit.js';
import { picturesDeck } from '../../support/decks/picture-decks.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { generateWithImages } from '../../support/decks/generate-with-images.js';
import * as img from '../../support/decks/test-images.js';
import { shapeXml } from '../../support/decks/deck.js';
import { DeckReader, visibleAspect, type Box } from '../../support/readers/picture-reading.js';
import { BADGE, SAMPLE_WITH_SHAPES } from '../sample-with-shapes.js';

// The owned picture template (picture-decks.ts): slide 0 "imagePNG" and "imageJPG", slide 1 the cropped and
// shaped pictures, slide 2 a linked picture.
const IMAGES = picturesDeck();
const TIMEOUT = 120_000;
const converter = new ConversionProcess({ timeoutMs: 60_000, memoryMb: 2048 });
afterAll(() => converter.close());

async function build(
  template: Uint8Array,
  presentation: Record<string, unknown>,
  files: Record<string, Uint8Array> = {},
  limits: Partial<ImageLimits> = {},
  unavailable?: Map<string, string>,
): Promise<GenerateResult> {
  const fileMap = new Map<string, Uint8Array>([['template.pptx', template], ...Object.entries(files)]);
  const payload = { presentation: { template: 'template.pptx', ...presentation } };
  return generateWithImages(payload, fileMap, {
    converter,
    limits: { ...DEFAULT_IMAGE_LIMITS, ...limits },
    ...(unavailable ? { unavailable } : {}),
  });
}

async function refusal(...args: Parameters<typeof build>): Promise<EngineError> {
  try {
    await build(...args);
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected an EngineError');
}

function frameOf(template: Uint8Array, slide: number, name: string): Box {
  const reader = new DeckReader(template);
  const box = reader.picture(reader.slideParts()[slide]!, name).box;
  if (!box) throw new Error(`no frame for ${name}`);
  return box;
}

function expectClose(actual: number, expected: number, tolerance = 0.01): void {
  expect(Math.abs(actual / expected - 1), `${actual} ≈ ${expected}`).toBeLessThanOrEqual(tolerance);
}

async function sizeOf(
  bytes: Uint8Array | undefined,
): Promise<{ width: number; height: number; format: string }> {
  const meta = await sharp(bytes).metadata();
  return { width: meta.width ?? 0, height: meta.height ?? 0, format: meta.format ?? '' };
}

describe('pictures: formats', () => {
  it(
    'PNG, JPEG and GIF are stored as they are; BMP, TIFF, WebP, AVIF become PNG; SVG keeps a PNG fallback; an EXIF-turned JPEG stands upright',
    async () => {
      const files: Record<string, Uint8Array> = {
        'a.png': await img.png(300, 100),
        'a.jpg': await img.jpeg(300, 100),
        'a.gif': await img.gif(300, 100),
        'a.bmp': img.bmp(300, 100),
        'a.tiff': await img.tiff(300, 100),
        'a.webp': await img.webp(300, 100),
        'a.avif': await img.avif(300, 100),
        'a.svg': img.svg(300, 100),
        // Stored 300 × 100, shown turned a quarter (orientation 6): 100 × 300 upright.
        'turned.jpg': await img.jpeg(300, 100, img.RED, 6),
      };
      const names = Object.keys(files);
      const result = await build(
        IMAGES,
        { slides: names.map((name) => ({ slide_index: 0, shapes: [{ name: 'imagePNG', filename: name }] })) },
        files,
      );
      await expectValidPptx(result.bytes, IMAGES);
      const reader = new DeckReader(result.bytes);
      const slides = reader.slideParts();
      const frame = frameOf(IMAGES, 0, 'imagePNG');
      const seen = new Map<string, { width: number; height: number; format: string }>();
      for (const [i, name] of names.entries()) {
        const picture = reader.picture(slides[i]!, 'imagePNG');
        const size = await sizeOf(picture.raster);
        seen.set(name, size);
        if (['a.png', 'a.jpg', 'a.gif'].includes(name)) expect(picture.raster).toEqual(files[name]);
        // contain: the frame takes the image's aspect, inside the template's frame, centred.
        const aspect = name === 'turned.jpg' ? 1 / 3 : 3;
        expectClose(picture.box!.cx / picture.box!.cy, aspect);
        expectClose(picture.box!.x + picture.box!.cx / 2, frame.x + frame.cx / 2);
        expectClose(picture.box!.y + picture.box!.cy / 2, frame.y + frame.cy / 2);
        expect(picture.box!.cx).toBeLessThanOrEqual(frame.cx + 1);
        expect(picture.box!.cy).toBeLessThanOrEqual(frame.cy + 1);
        expect(picture.srcRect).toEqual({ l: 0, t: 0, r: 0, b: 0 });
        expect(await img.pixelAt(picture.raster!, 5, 5)).toSatisfy(closeTo(img.RED));
        if (name === 'a.svg') expect(picture.svg).toEqual(files['a.svg']);
        else expect(picture.svg).toBeUndefined();
      }
      expect(Object.fromEntries([...seen].map(([n, s]) => [n, s.format]))).toEqual({
        'a.png': 'png',
        'a.jpg': 'jpeg',
        'a.gif': 'gif',
        'a.bmp': 'png',
        'a.tiff': 'png',
        'a.webp': 'png',
        'a.avif': 'png',
        'a.svg': 'png',
        'turned.jpg': 'jpeg',
      });
      expect(seen.get('turned.jpg')).toMatchObject({ width: 100, height: 300 });
      expect(
        (await sharp(reader.picture(slides[8]!, 'imagePNG').raster).metadata()).orientation,
      ).toBeUndefined();
      expect(seen.get('a.bmp')).toMatchObject({ width: 300, height: 100 });
      // SVG fallback rendered large enough to stay sharp, with the SVG's aspect.
      expect(seen.get('a.svg')!.width).toBeGreaterThanOrEqual(1000);
      expectClose(seen.get('a.svg')!.width / seen.get('a.svg')!.height, 3);
      const types = reader.text('[Content_Types].xml');
      expect(types).toMatch(/Extension="svg" ContentType="image\/svg\+xml"/);
    },
    TIMEOUT,
  );

  it('data: URIs, base64 or percent-encoded, are pictures too', async () => {
    const red = await img.png(40, 20);
    const svgText = new TextDecoder().decode(img.svg(20, 40, img.BLUE));
    const result = await build(IMAGES, {
      slides: [
        { slide_index: 0, shapes: [{ name: 'imagePNG', content: img.dataUri(red, 'image/png') }] },
        {
          slide_index: 0,
          shapes: [
            { name: 'imageJPG', content: `data:image/svg+xml,${encodeURIComponent(svgText)}`, fit: 'cover' },
          ],
        },
      ],
    });
    const reader = new DeckReader(result.bytes);
    const [first, second] = reader.slideParts();
    expect(reader.picture(first!, 'imagePNG').raster).toEqual(red);
    const svgPicture = reader.picture(second!, 'imageJPG');
    expect(new TextDecoder().decode(svgPicture.svg)).toBe(svgText);
    expect(await img.pixelAt(svgPicture.raster!, 3, 3)).toSatisfy(closeTo(img.BLUE));
    await expectValidPptx(result.bytes, IMAGES);
  });
});

describe('pictures: fit', () => {
  it('cover crops centrally to the frame, stretch fills it, contain letterboxes it; the old crop does not leak', async () => {
    const template = IMAGES;
    const wide = await img.png(400, 100);
    const tall = await img.png(100, 400, img.GREEN);
    const names = ['Top 0.33', 'Left 0.5', 'RoundedRectangle'];
    const result = await build(
      template,
      {
        slides: [
          { slide_index: 1, shapes: names.map((name) => ({ name, filename: 'wide.png', fit: 'cover' })) },
          { slide_index: 1, shapes: names.map((name) => ({ name, filename: 'tall.png', fit: 'cover' })) },
          { slide_index: 1, shapes: names.map((name) => ({ name, filename: 'wide.png', fit: 'stretch' })) },
          { slide_index: 1, shapes: names.map((name) => ({ name, filename: 'wide.png', fit: 'contain' })) },
          { slide_index: 1, shapes: names.map((name) => ({ name, filename: 'tall.png', fit: 'contain' })) },
        ],
      },
      { 'wide.png': wide, 'tall.png': tall },
    );
    await expectValidPptx(result.bytes, template);
    const reader = new DeckReader(result.bytes);
    const slides = reader.slideParts();
    for (const name of names) {
      const frame = frameOf(template, 1, name);
      const frameAspect = frame.cx / frame.cy;
      for (const [slide, image] of [
        [0, { width: 400, height: 100 }],
        [1, { width: 100, height: 400 }],
      ] as const) {
        const picture = reader.picture(slides[slide]!, name);
        expect(picture.box).toEqual(frame);
        expectClose(visibleAspect(image, picture.srcRect), frameAspect);
        // Central: equal crops on opposite sides, nothing negative.
        expect(picture.srcRect.l).toBe(picture.srcRect.r);
        expect(picture.srcRect.t).toBe(picture.srcRect.b);
        expect(Math.min(...Object.values(picture.srcRect))).toBeGreaterThanOrEqual(0);
      }
      const stretched = reader.picture(slides[2]!, name);
      expect(stretched.box).toEqual(frame);
      expect(stretched.srcRect).toEqual({ l: 0, t: 0, r: 0, b: 0 });
      // Contain: the whole image (no crop, the template's own included), its aspect kept, centred in the frame,
      // filling it along the side where the image is the longer one.
      for (const [slide, image] of [
        [3, { width: 400, height: 100 }],
        [4, { width: 100, height: 400 }],
      ] as const) {
        const contained = reader.picture(slides[slide]!, name);
        const box = contained.box!;
        expect(contained.srcRect).toEqual({ l: 0, t: 0, r: 0, b: 0 });
        expectClose(box.cx / box.cy, image.width / image.height);
        expectClose(box.x + box.cx / 2, frame.x + frame.cx / 2);
        expectClose(box.y + box.cy / 2, frame.y + frame.cy / 2);
        if (image.width / image.height > frameAspect) {
          expectClose(box.cx, frame.cx);
          expect(box.cy).toBeLessThan(frame.cy);
        } else {
          expectClose(box.cy, frame.cy);
          expect(box.cx).toBeLessThan(frame.cx);
        }
      }
    }
  });

  it('the same image 100 times is stored once; an image the template has reuses its part', async () => {
    const photo = await img.jpeg(640, 480, img.GREEN);
    const templateImage = new DeckReader(IMAGES).files['ppt/media/image2.png'];
    expect(templateImage).toBeDefined();
    const slides = Array.from({ length: 100 }, (_, i) => ({
      slide_index: 0,
      shapes: [
        { name: 'imageJPG', filename: 'photo.jpg', fit: 'cover' },
        ...(i % 10 === 0 ? [{ name: 'imagePNG', filename: 'again.png' }] : []),
      ],
    }));
    const result = await build(IMAGES, { slides }, { 'photo.jpg': photo, 'again.png': templateImage! });
    const reader = new DeckReader(result.bytes);
    const media = Object.keys(reader.files).filter((n) => n.startsWith('ppt/media/'));
    const copies = media.filter((n) => Buffer.compare(reader.files[n]!, photo) === 0);
    expect(copies).toHaveLength(1);
    const sameAsTemplate = media.filter((n) => Buffer.compare(reader.files[n]!, templateImage!) === 0);
    expect(sameAsTemplate).toEqual(['ppt/media/image2.png']);
    const parts = reader.slideParts();
    expect(new Set(parts.map((p) => reader.picture(p, 'imageJPG').rasterPart))).toEqual(new Set([copies[0]]));
    // The JPEG's image part is stored, not deflated again.
    const raw = Buffer.from(result.bytes);
    const header = raw.indexOf(Buffer.from(copies[0]!));
    expect(raw.readUInt16LE(header - 30 + 8)).toBe(0);
    await expectValidPptx(result.bytes, IMAGES);
  });
});

describe('pictures: targets', () => {
  it('an empty picture placeholder becomes a picture with the layout geometry, keeping its id, name and p:ph', async () => {
    // The layouts template: slide 8 has the empty "Picture Placeholder 4"; slide 1's "Content Placeholder 2" is
    // emptied here, as an unfilled content placeholder is.
    const template = editPart(layoutsTemplate(), 'ppt/slides/slide2.xml', (xml) =>
      xml.replace(
        /(name="Content Placeholder 2"[\s\S]*?<a:lstStyle\/>)[\s\S]*?(<\/p:txBody>)/,
        '$1<a:p><a:endParaRPr lang="en-US"/></a:p>$2',
      ),
    );
    const result = await build(
      template,
      {
        slides: [
          {
            slide_index: 8,
            shapes: [{ name: 'Picture Placeholder 4', filename: 'p.png', alt_text: 'A red band' }],
          },
          { slide_index: 8, shapes: [{ name: 'Picture Placeholder 4', filename: 'p.png', fit: 'cover' }] },
          { slide_index: 1, shapes: [{ name: 'Content Placeholder 2', filename: 'p.png' }] },
        ],
      },
      { 'p.png': await img.png(500, 100) },
    );
    await expectValidPptx(result.bytes, template);
    const reader = new DeckReader(result.bytes);
    const [contained, covered, content] = reader.slideParts();
    const templateXml = new DeckReader(template).text(new DeckReader(template).slideParts()[8]!);
    const id = /<p:cNvPr id="(\d+)" name="Picture Placeholder 4"/.exec(templateXml)?.[1];
    for (const part of [contained!, covered!]) {
      const picture = reader.picture(part, 'Picture Placeholder 4');
      expect(picture.element.name).toBe('p:pic');
      expect(reader.text(part)).toContain(`<p:cNvPr id="${id}" name="Picture Placeholder 4"`);
      expect(reader.text(part)).toMatch(/<p:ph type="pic"[^>]*\/>/);
      expect(reader.text(part)).toContain('<a:picLocks noGrp="1" noChangeAspect="1"/>');
      expect(picture.raster).toBeDefined();
    }
    const layoutBox = inheritedBox(reader, contained!);
    const fitted = reader.picture(contained!, 'Picture Placeholder 4');
    expect(fitted.descr).toBe('A red band');
    expectClose(fitted.box!.cx / fitted.box!.cy, 5);
    expectClose(fitted.box!.x + fitted.box!.cx / 2, layoutBox.x + layoutBox.cx / 2);
    expectClose(fitted.box!.y + fitted.box!.cy / 2, layoutBox.y + layoutBox.cy / 2);
    const cover = reader.picture(covered!, 'Picture Placeholder 4');
    expect(cover.box).toBeNull(); // still inherits the layout's frame
    expectClose(visibleAspect({ width: 500, height: 100 }, cover.srcRect), layoutBox.cx / layoutBox.cy);
    expect(reader.picture(content!, 'Content Placeholder 2').element.name).toBe('p:pic');
  });

  it('an auto-shape or text box takes the image as its fill and keeps its text; a linked picture becomes embedded', async () => {
    const linked = IMAGES;
    // A 1:2 image on the 2:1 Badge: cover keeps the middle eighth of its height (37.5 % cut above and below).
    const fill = await build(
      SAMPLE_WITH_SHAPES,
      { slides: [{ slide_index: 1, shapes: [{ name: 'Badge', filename: 'f.png', fit: 'cover' }] }] },
      {
        'f.png': await img.png(100, 200, img.BLUE),
      },
    );
    await expectValidPptx(fill.bytes, SAMPLE_WITH_SHAPES);
    const reader = new DeckReader(fill.bytes);
    const slide = reader.slideParts()[0]!;
    const badge = reader.picture(slide, 'Badge');
    expect(badge.element.name).toBe('p:sp');
    expect(badge.box).toEqual(BADGE);
    expect(badge.srcRect).toEqual({ l: 0, t: 37_500, r: 0, b: 37_500 });
    expect(await img.pixelAt(badge.raster!, 1, 1)).toSatisfy(closeTo(img.BLUE));
    expect(reader.text(slide)).toMatch(/<p:spPr>[\s\S]*<a:blipFill rotWithShape="1">[\s\S]*<\/p:spPr>/);
    expect(shapeXml(reader.text(slide), 'Badge')).toMatch(/<p:txBody>[\s\S]*<a:t>New<\/a:t>/);

    const embedded = await build(
      linked,
      { slides: [{ slide_index: 2, shapes: [{ name: 'Linked picture', filename: 'f.png' }] }] },
      {
        'f.png': await img.png(200, 100, img.BLUE),
      },
    );
    await expectValidPptx(embedded.bytes, linked);
    const out = new DeckReader(embedded.bytes);
    const part = out.slideParts()[0]!;
    expect(out.text(part)).not.toContain('r:link=');
    expect(out.picture(part, 'Linked picture').raster).toBeDefined();
    expect(out.text(`ppt/slides/_rels/${part.split('/').pop()}.rels`)).not.toContain('TargetMode="External"');
  });
});

describe('pictures: refusals name the field the user sent', () => {
  const slideWith = (shape: Record<string, unknown>) => ({
    slides: [{ slide_index: 0, shapes: [{ name: 'imagePNG', ...shape }] }],
  });
  const PATH = 'presentation.slides[0].shapes[0]';

  it.each([
    ['not an image', { filename: 'notes.txt' }, 'filename', /"notes.txt" is not an image/],
    ['truncated', { content: 'cut.png' }, 'content', /truncated PNG/],
    ['truncated JPEG', { filename: 'cut.jpg' }, 'filename', /truncated JPEG/],
    ['a pixel bomb', { filename: 'bomb.png' }, 'filename', /100000 × 100000 pixels, over the limit/],
    ['missing', { filename: 'nope.png' }, 'filename', /"nope.png" is not among the uploaded files/],
    ['a broken data URI', { content: 'data:image/png;base64,@@@' }, 'content', /data: URI is malformed/],
    ['a broken SVG', { filename: 'bad.svg' }, 'filename', /is not a well-formed SVG: malformed XML/],
  ])('%s', async (_label, shape, field, message) => {
    const jpegBytes = await img.jpeg(50, 50);
    const error = await refusal(IMAGES, slideWith(shape), {
      'notes.txt': new TextEncoder().encode('hello'),
      'cut.png': (await img.png(64, 64)).subarray(0, 40),
      'cut.jpg': jpegBytes.subarray(0, jpegBytes.length - 10),
      'bomb.png': img.pngClaiming(100_000, 100_000),
      'bad.svg': new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect',
      ),
    });
    expect(error.path).toBe(`${PATH}.${field}`);
    expect(error.message).toMatch(message);
  });

  it('over the byte cap, and over the pixel cap in a format that is converted (checked before decoding)', async () => {
    const big = await refusal(
      IMAGES,
      slideWith({ filename: 'a.png' }),
      { 'a.png': await img.png(300, 300) },
      { maxBytes: 100 },
    );
    expect(big.code).toBe('INVALID_IMAGE');
    expect(big.message).toMatch(/is \d+ KB, over the 1 KB limit for one image/);
    const webp = await refusal(
      IMAGES,
      slideWith({ filename: 'a.webp' }),
      { 'a.webp': await img.webp(300, 300) },
      { maxPixels: 10_000 },
    );
    expect(webp.message).toMatch(/300 × 300 pixels, over the limit of 10,000 pixels/);
  });

  it('a URL that could not be fetched is refused with the reason, naming the shape', async () => {
    const url = 'http://127.0.0.1:9/missing.png';
    const error = await refusal(
      IMAGES,
      slideWith({ content: url, fit: 'cover' }),
      {},
      {},
      new Map([[url, `URL ${url} answered HTTP 404`]]),
    );
    expect(error.path).toBe(`${PATH}.content`);
    expect(error.message).toContain('answered HTTP 404');
  });
});

function inheritedBox(reader: DeckReader, slidePart: string): Box {
  const layout = [...reader.relationships(slidePart).values()].find((p) => p.includes('slideLayouts/'))!;
  const xml = reader.text(layout);
  const sp = /<p:sp>(?:(?!<\/p:sp>)[\s\S])*?type="pic"[\s\S]*?<\/p:sp>/.exec(xml)?.[0] ?? '';
  const off = /<a:off x="(\d+)" y="(\d+)"/.exec(sp);
  const ext = /<a:ext cx="(\d+)" cy="(\d+)"/.exec(sp);
  if (!off || !ext) throw new Error('the layout has no picture placeholder geometry');
  return { x: Number(off[1]), y: Number(off[2]), cx: Number(ext[1]), cy: Number(ext[2]) };
}

function closeTo(expected: img.Rgb): (actual: img.Rgb) => boolean {
  return (actual) =>
    Math.abs(actual.r - expected.r) < 12 &&
    Math.abs(actual.g - expected.g) < 12 &&
    Math.abs(actual.b - expected.b) < 12;
}
