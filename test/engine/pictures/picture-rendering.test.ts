/**
 * What a person sees: LibreOffice renders a deck holding each template slide as it was and then with its
 * pictures replaced by a solid-colour image (one soffice call per deck). Where a picture's frame was, the
 * filled page shows the new colour and the unchanged page does not; outside the pictures, nothing moved.
 */
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { generate, inspect } from '../../../src/engine/index.js';
import { child } from '../../../src/engine/xml/index.js';
import { describeCorpus, readCorpus } from '../../support/corpus/corpus.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { renderToPngs } from '../../support/readers/render.js';
import { png, type Rgb } from '../../support/decks/test-images.js';
import { DeckReader, type Box } from '../../support/readers/picture-reading.js';

const TIMEOUT = 180_000;
const MAGENTA: Rgb = { r: 240, g: 0, b: 200 };
const DPI = 50;

interface Page {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

async function page(bytes: Uint8Array): Promise<Page> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** The colour at a point given in EMU on a slide `slideCx` EMU wide. */
function colourAt(p: Page, slideCx: number, x: number, y: number): Rgb {
  const scale = p.width / slideCx;
  const px = Math.min(p.width - 1, Math.round(x * scale));
  const py = Math.min(p.height - 1, Math.round(y * scale));
  const at = (py * p.width + px) * p.channels;
  return { r: p.data[at] ?? 0, g: p.data[at + 1] ?? 0, b: p.data[at + 2] ?? 0 };
}

function isMagenta(c: Rgb): boolean {
  return Math.abs(c.r - MAGENTA.r) < 30 && c.g < 40 && Math.abs(c.b - MAGENTA.b) < 30;
}

/**
 * Points well inside a box: its centre, and for a rectangle four points halfway to its corners (a star or a
 * rounded shape masks those).
 */
function inside(box: Box, rectangle = true): [number, number][] {
  const cx = box.x + box.cx / 2;
  const cy = box.y + box.cy / 2;
  if (!rectangle) return [[cx, cy]];
  return [
    [cx, cy],
    [cx - box.cx / 4, cy - box.cy / 4],
    [cx + box.cx / 4, cy - box.cy / 4],
    [cx - box.cx / 4, cy + box.cy / 4],
    [cx + box.cx / 4, cy + box.cy / 4],
  ];
}

describeCorpus('pictures as LibreOffice draws them', () => {
  it.each([
    ['pptx-automizer/SlideWithImages.pptx', 0, 'cover'],
    ['ShapeCrawler/059_crop-images.pptx', 0, 'stretch'],
    ['poi/54542_cropped_bitmap.pptx', 0, 'cover'],
  ] as const)(
    '%s slide %i (%s): the new image is where the old one was',
    async (file, slideIndex, fit) => {
      const template = readCorpus(file);
      const info = inspect(template);
      const pictures = info.slides[slideIndex]!.shapes.filter((s) => s.kind === 'picture' && !s.group);
      expect(pictures.length).toBeGreaterThan(0);
      const files = new Map([
        ['template.pptx', template],
        ['magenta.png', await png(300, 200, MAGENTA)],
      ]);
      const slides = [
        { slide_index: slideIndex },
        {
          slide_index: slideIndex,
          shapes: pictures.map((p) => ({ shapeId: p.id, filename: 'magenta.png', fit })),
        },
      ];
      const result = generate({ payload: { presentation: { template: 'template.pptx', slides } }, files });
      await expectValidPptx(result.bytes, template);
      const reader = new DeckReader(result.bytes);
      const [beforePart, afterPart] = reader.slideParts();
      const [before, after] = await Promise.all((await renderToPngs(result.bytes, DPI)).map(page));
      const slideCx = info.slideSize!.cx;
      for (const picture of pictures) {
        const oldBox = reader.picture(beforePart!, picture.id).box!;
        const filled = reader.picture(afterPart!, picture.id);
        const newBox = filled.box!;
        const spPr = child(filled.element, 'p:spPr');
        const geometry = spPr && child(spPr, 'a:prstGeom');
        const rectangle = !geometry || geometry.attrs.prst === 'rect';
        for (const [x, y] of inside(newBox, rectangle)) {
          expect(isMagenta(colourAt(after!, slideCx, x, y)), `#${picture.id} at ${x},${y} after`).toBe(true);
        }
        expect(
          inside(oldBox).some(([x, y]) => !isMagenta(colourAt(before!, slideCx, x, y))),
          `#${picture.id}: the template's picture was not already magenta`,
        ).toBe(true);
      }
      // Away from every picture, the two pages agree: a corner of the slide.
      expect(colourAt(after!, slideCx, 10_000, 10_000)).toEqual(colourAt(before!, slideCx, 10_000, 10_000));
    },
    TIMEOUT,
  );
});
