/**
 * Every picture of every valid corpus deck (cropped, rotated, grouped, SVG and placeholder pictures among
 * them) replaced by an image of another aspect ratio, once with `cover` and once with `contain`: one output
 * per deck holding each slide with pictures twice. The output gains no problem over its template; read back,
 * each picture shows the new bytes, and its visible geometry matches the fit within 1 %.
 */
import { beforeAll, expect, it } from 'vitest';
import { generate, inspect, type InspectResult } from '../../../src/engine/index.js';
import { corpusFiles, describeCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { png } from '../../support/decks/test-images.js';
import { DeckReader, visibleAspect, type Box } from '../../support/readers/picture-reading.js';

const decks = corpusFiles().filter((d) => !d.strict && d.features.includes('images'));
const TIMEOUT = 600_000;
const WIDE = { name: 'wide.png', width: 240, height: 80 };
const TALL = { name: 'tall.png', width: 80, height: 240 };
const images = new Map<string, Uint8Array>();

beforeAll(async () => {
  images.set(WIDE.name, await png(WIDE.width, WIDE.height));
  images.set(TALL.name, await png(TALL.width, TALL.height));
});

interface Planned {
  slideIndex: number;
  id: number;
  frame: Box | null;
  image: typeof WIDE;
}

/** Each picture of each slide, with the image of the other orientation than its frame. */
function plan(template: Uint8Array, info: InspectResult): Planned[] {
  const reader = new DeckReader(template);
  const parts = reader.slideParts();
  return info.slides.flatMap((slide) =>
    slide.shapes
      .filter((shape) => shape.kind === 'picture')
      .map((shape) => {
        const frame = reader.picture(parts[slide.index]!, shape.id).box;
        const image = frame && frame.cx < frame.cy ? WIDE : TALL;
        return { slideIndex: slide.index, id: shape.id, frame, image };
      }),
  );
}

/** Within 1 % of `scale` (a frame's width or height). */
function close(actual: number, expected: number, scale = Math.abs(expected)): boolean {
  return Math.abs(actual - expected) <= 0.01 * scale;
}

describeCorpus('corpus: every picture replaced, cover and contain', () => {
  it('has the corpus decks with images', () => {
    expect(decks.length).toBeGreaterThanOrEqual(50);
  });

  it.for(decks.map((d) => [d.file, d] as const))('%s', { timeout: TIMEOUT }, async ([, deck], ctx) => {
    const template = readCorpus(deck);
    const info = inspect(template);
    const pictures = plan(template, info);
    const slideIndexes = [...new Set(pictures.map((p) => p.slideIndex))];
    if (slideIndexes.length === 0) {
      // Nothing to replace is a skip, and only when the slides truly hold no picture a payload could fill.
      expect(ordinaryPictures(template), 'pictures on slides that inspect does not list').toEqual([]);
      ctx.skip(`no picture a payload can fill: its images are ${imageUsers(template)}`);
    }
    const slides = slideIndexes.flatMap((index) =>
      (['cover', 'contain'] as const).map((fit) => ({
        slide_index: index,
        shapes: pictures
          .filter((p) => p.slideIndex === index)
          .map((p) => ({ shapeId: p.id, filename: p.image.name, fit })),
      })),
    );
    const files = new Map([['template.pptx', template], ...images]);
    const result = generate({ payload: { presentation: { template: 'template.pptx', slides } }, files });
    await expectValidPptx(result.bytes, template);

    const reader = new DeckReader(result.bytes);
    const parts = reader.slideParts();
    slideIndexes.forEach((index, i) => {
      for (const [offset, fit] of [
        [0, 'cover'],
        [1, 'contain'],
      ] as const) {
        for (const planned of pictures.filter((p) => p.slideIndex === index)) {
          const where = `slide ${index} (${fit}), picture #${planned.id}`;
          const picture = reader.picture(parts[2 * i + offset]!, planned.id);
          expect(Buffer.compare(picture.raster!, images.get(planned.image.name)!), where).toBe(0);
          const frame = planned.frame;
          if (!frame || frame.cx === 0 || frame.cy === 0) continue; // inherited or empty: checked elsewhere
          const box = picture.box!;
          if (fit === 'cover') {
            expect(close(box.cx, frame.cx) && close(box.cy, frame.cy), `${where}: frame kept`).toBe(true);
            const aspect = visibleAspect(planned.image, picture.srcRect);
            expect(close(aspect, frame.cx / frame.cy), `${where}: visible aspect ${aspect}`).toBe(true);
          } else {
            const aspect = box.cx / box.cy;
            const expected = planned.image.width / planned.image.height;
            expect(close(aspect, expected), `${where}: contained aspect ${aspect}`).toBe(true);
            expect(picture.srcRect, `${where}: no crop`).toEqual({ l: 0, t: 0, r: 0, b: 0 });
            const centred =
              close(box.x + box.cx / 2, frame.x + frame.cx / 2, frame.cx) &&
              close(box.y + box.cy / 2, frame.y + frame.cy / 2, frame.cy);
            expect(centred, `${where}: centred`).toBe(true);
            expect(box.cx <= frame.cx * 1.01 && box.cy <= frame.cy * 1.01, `${where}: inside`).toBe(true);
          }
        }
      }
    });
  });
});

/** Media (video, audio) and fallback renditions (of an OLE object, a chartEx chart) are not pictures to fill. */
const NOT_A_PICTURE = /<a:(videoFile|audioFile|wavAudioFile|quickTimeFile)\b|<p14:media\b/;

/** `slide part: name` of each ordinary p:pic on a slide, outside mc:Fallback and not a media frame. */
function ordinaryPictures(template: Uint8Array): string[] {
  const reader = new DeckReader(template);
  return reader.slideParts().flatMap((part) => {
    const xml = reader.text(part).replace(/<mc:Fallback>[\s\S]*?<\/mc:Fallback>/g, '');
    return [...xml.matchAll(/<p:pic>[\s\S]*?<\/p:pic>/g)]
      .filter((m) => !NOT_A_PICTURE.test(m[0]))
      .map((m) => `${part}: ${/name="([^"]*)"/.exec(m[0])?.[1] ?? '?'}`);
  });
}

/** Which kinds of part relate to an image, e.g. "used by slideLayouts ×2, charts ×1". */
function imageUsers(template: Uint8Array): string {
  const reader = new DeckReader(template);
  const users = new Map<string, number>();
  for (const [name, data] of Object.entries(reader.files)) {
    if (!name.endsWith('.rels')) continue;
    const images = new TextDecoder().decode(data).match(/Type="[^"]*\/image"/g)?.length ?? 0;
    const folder = /^(?:ppt\/)?([^/]+)\//.exec(name)?.[1] ?? name;
    if (images > 0) users.set(folder, (users.get(folder) ?? 0) + images);
  }
  const list = [...users].map(([folder, n]) => `${folder} ×${n}`).join(', ');
  if (!list) return 'not used by any part';
  return users.has('slides')
    ? `used by ${list} (on slides: media, fallbacks or shape fills)`
    : `used by ${list}`;
}
