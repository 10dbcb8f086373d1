/**
 * The playground's pre-filled payload gives the template back: a deck generated from it unchanged renders like
 * the template. Each template is generated once as [every slide as the template has it, then every slide as the
 * pre-fill writes it], so one LibreOffice conversion renders both, and page i is compared with page n + i pixel by
 * pixel. Owned decks cover mixed formatting, an empty text box, a picture, tables with merges and every chart
 * type the engine fills; a few corpus decks bring real text, tables, charts and pictures.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { InspectResult } from '../../src/console/browser/inspect-types.js';
import { prefillPayload } from '../../src/console/browser/payload-prefill.js';
import { generate, inspect } from '../../src/engine/index.js';
import { generatedChartsDeck } from '../support/decks/chart-templates.js';
import { describeCorpus, readCorpus } from '../support/corpus/corpus.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { slidesDeck, titleShape } from '../support/decks/one-slide-deck.js';
import { renderToPngs } from '../support/readers/render.js';
import { tablesDeck } from '../support/decks/table-decks.js';
import { BLUE, png } from '../support/decks/test-images.js';

const TIMEOUT = 240_000;
const DPI = 60;
/** A channel differing by more than this is a changed pixel (anti-aliasing moves a few levels at most). */
const CHANNEL_TOLERANCE = 40;

interface RoundTrip {
  pages: number;
  /** Per template slide: how many pixels differ between the template's page and the pre-filled one. */
  changed: number[];
  entries: number;
}

async function roundTrip(template: Uint8Array): Promise<RoundTrip> {
  const result = inspect(template) as unknown as InspectResult;
  const prefilled = prefillPayload(result, 'template.pptx');
  const slides = [...result.slides.map((s) => ({ slide_index: s.index })), ...prefilled.presentation.slides];
  const out = generate({
    payload: { presentation: { ...prefilled.presentation, slides } },
    files: new Map([['template.pptx', template]]),
  });
  await expectValidPptx(out.bytes, template);
  const pngs = await renderToPngs(out.bytes, DPI);
  const n = result.slides.length;
  expect(pngs).toHaveLength(2 * n);
  const changed: number[] = [];
  for (let i = 0; i < n; i++) changed.push(await changedPixels(pngs[i]!, pngs[n + i]!));
  const entries = prefilled.presentation.slides.reduce((sum, s) => sum + (s.shapes?.length ?? 0), 0);
  return { pages: pngs.length, changed, entries };
}

async function changedPixels(a: Uint8Array, b: Uint8Array): Promise<number> {
  const [x, y] = await Promise.all(
    [a, b].map((bytes) => sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  expect([y!.info.width, y!.info.height]).toEqual([x!.info.width, x!.info.height]);
  let count = 0;
  for (let p = 0; p < x!.data.length; p += 3) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs(x!.data[p + c]! - y!.data[p + c]!) > CHANNEL_TOLERANCE) {
        count += 1;
        break;
      }
    }
  }
  return count;
}

const IMAGE = await png(240, 160, BLUE);

/** Text with formatting that changes inside paragraphs, an empty text box and a picture, on one slide. */
function mixedDeck(): Uint8Array {
  const box = (id: number, name: string, y: number, paragraphs: string): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm><a:off x="457200" y="${y}"/><a:ext cx="6400800" cy="1371600"/></a:xfrm>` +
    `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:ln><a:solidFill><a:srgbClr val="888888"/></a:solidFill></a:ln></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>${paragraphs}</p:txBody></p:sp>`;
  const r = (text: string, attrs = '', children = ''): string =>
    `<a:r><a:rPr lang="en-US" sz="2000"${attrs}${children ? `>${children}</a:rPr>` : '/>'}<a:t>${text}</a:t></a:r>`;
  const red = '<a:solidFill><a:srgbClr val="C00000"/></a:solidFill>';
  const body =
    `<a:p>${r('Revenue ', ' b="1"')}${r('up 12%', '', red)}${r(' this quarter', ' i="1" u="sng"')}</a:p>` +
    `<a:p>${r('E = mc')}${r('2', ' baseline="30000"')}<a:br><a:rPr lang="en-US" sz="2000"/></a:br>` +
    `${r('and H', ' b="1"')}${r('2', ' baseline="-25000"')}${r('O')}</a:p>` +
    '<a:p><a:endParaRPr lang="en-US" sz="2000"/></a:p>' +
    `<a:p>${r('One formatting in this paragraph', ' i="1"', red)}</a:p>`;
  return slidesDeck([
    {
      layout: 6,
      shapes:
        titleShape('Mixed formatting') +
        box(3, 'Body', 1371600, body) +
        box(4, 'Text Box 3', 3017520, '<a:p><a:endParaRPr lang="en-US" sz="2400"/></a:p>') +
        `<p:pic><p:nvPicPr><p:cNvPr id="5" name="Logo"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr>` +
        `<p:blipFill><a:blip r:embed="rId2"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
        `<p:spPr><a:xfrm><a:off x="7315200" y="1371600"/><a:ext cx="2286000" cy="1524000"/></a:xfrm>` +
        `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`,
      rels: [['rId2', 'image', '../media/image1.png']],
      parts: { 'ppt/media/image1.png': { bytes: IMAGE, type: null } },
      defaults: { png: 'image/png' },
    },
  ]);
}

describe('the pre-filled payload gives the template back', () => {
  it.each([
    ['mixed formatting, an empty text box and a picture', mixedDeck],
    // The chart deck's slide, then one slide per chart type (scatter and bubble among them).
    ['every chart type the engine fills', () => generatedChartsDeck().bytes],
    ['tables with merges', tablesDeck],
  ])(
    '%s',
    async (_, deck) => {
      const trip = await roundTrip(deck());
      expect(trip.entries).toBeGreaterThan(0);
      expect(trip.changed).toEqual(trip.changed.map(() => 0));
    },
    TIMEOUT,
  );
});

describeCorpus('the pre-filled payload gives a real deck back', () => {
  it.each([
    'python-pptx/shp-shapes.pptx',
    'pptx-automizer/ShapeTypesCollection.pptx',
    'markitdown/test.pptx',
    'pptx-automizer/GS_Tables_Merged.pptx',
  ])(
    '%s',
    async (file) => {
      const trip = await roundTrip(readCorpus(file));
      expect(trip.entries).toBeGreaterThan(0);
      expect(trip.changed).toEqual(trip.changed.map(() => 0));
    },
    TIMEOUT,
  );
});
