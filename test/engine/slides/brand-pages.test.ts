/**
 * Masters and layouts filled like slides (docs/payload.md "Brand"): a `masters` entry puts the customer's logo
 * and footer on the master, so every slide of that master shows them, and a `layouts` entry fills one layout;
 * masters are counted in presentation.xml's order, layouts as `"type": "layout"` counts them, and `inspect`
 * lists both. Two template_list entries of one file each keep their own copy of its masters. Every deck goes
 * through the invariants and the validator against its template, and is rendered.
 */
import { strFromU8, unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, inspect, type GenerateResult } from '../../../src/engine/index.js';
import { engineErrorOf } from '../../support/checks/engine-error.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import {
  BADGE_BOX,
  FOOTER_BOX,
  LOGO_BOX,
  LOGO_GREY,
  masterLogoTemplate,
} from '../../support/decks/master-logo-template.js';
import { png, type Rgb } from '../../support/decks/test-images.js';
import { colourAt, countNear, near, pagePixels } from '../../support/readers/page-pixels.js';
import { renderToPdfText, renderToPngs } from '../../support/readers/render.js';

const SLIDE_CX = 9_144_000;
const MAGENTA: Rgb = { r: 230, g: 0, b: 180 };
const TEAL: Rgb = { r: 0, g: 150, b: 140 };
const LOGO_MIDDLE = { x: LOGO_BOX.x + LOGO_BOX.cx / 2, y: LOGO_BOX.y + LOGO_BOX.cy / 2 };

let template: Uint8Array;
let magentaLogo: Uint8Array;
let tealLogo: Uint8Array;

beforeAll(async () => {
  template = await masterLogoTemplate();
  magentaLogo = await png(160, 80, MAGENTA);
  tealLogo = await png(160, 80, TEAL);
});

/** The engine on the master-logo template, with the logos `pictures` names uploaded. */
function run(
  presentation: Record<string, unknown>,
  pictures: ('logo.png' | 'teal.png')[] = [],
): GenerateResult {
  const uploads = { 'logo.png': magentaLogo, 'teal.png': tealLogo };
  return generate({
    files: new Map([['harbour.pptx', template], ...pictures.map((name) => [name, uploads[name]] as const)]),
    payload: { presentation: { template: 'harbour.pptx', ...presentation } },
  });
}

const ALL_SLIDES = [{ slide_index: 0 }, { slide_index: 1 }, { slide_index: 2 }];

function part(bytes: Uint8Array, name: string): string {
  const data = unzipSync(bytes)[name];
  if (!data) throw new Error(`no ${name} in the deck`);
  return strFromU8(data);
}

describe('masters and layouts filled like slides', () => {
  it('lists each master and layout with its index and shapes (inspect)', () => {
    const result = inspect(template);
    expect(result.masters.map((m) => [m.index, m.name, m.shapes.map((s) => s.name)])).toEqual([
      [0, 'Harbour Orange', ['Title Placeholder 1', 'Text Placeholder 2', 'Logo', 'Footer Text']],
      [1, 'Harbour Blue', ['Title Placeholder 1', 'Text Placeholder 2', 'Logo', 'Footer Text']],
    ]);
    expect(result.layouts.map((l) => [l.index, l.name, l.master])).toEqual([
      [0, 'Title Slide', 0],
      [1, 'Title and Content', 0],
      [2, 'Title Only', 0],
      [3, 'Title Slide', 1],
      [4, 'Title and Content', 1],
      [5, 'Title Only', 1],
    ]);
    expect(result.masters[0]?.shapes.find((s) => s.name === 'Logo')).toMatchObject({
      kind: 'picture',
      box: LOGO_BOX,
    });
    expect(result.layouts[1]?.shapes.map((s) => s.name)).toContain('Layout Badge');
  });

  it("puts the logo and the footer on every slide of the master the entry names, and the layout's badge on its slides", async () => {
    const result = run(
      {
        tags: [{ key: 'company', value: 'Acme Shipping' }],
        masters: [{ index: 0, shapes: [{ name: 'Logo', content: 'logo.png' }] }],
        layouts: [{ index: 1, shapes: [{ name: 'Layout Badge', content: 'Quarterly' }] }],
        slides: ALL_SLIDES,
      },
      ['logo.png'],
    );
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, template);
    // The master part holds the new picture and the tag's value; no slide part was touched.
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster1.xml')).toContain('Acme Shipping');
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster2.xml')).toContain('{{company}}');
    expect(part(result.bytes, 'ppt/slideLayouts/slideLayout2.xml')).toContain('Quarterly');
    const source = unzipSync(template);
    for (const slide of ['ppt/slides/slide1.xml', 'ppt/slides/slide2.xml', 'ppt/slides/slide3.xml'])
      expect(part(result.bytes, slide)).toBe(strFromU8(source[slide] as Uint8Array));

    const [pages, texts] = await Promise.all([renderToPngs(result.bytes), renderToPdfText(result.bytes)]);
    const [orangeTitle, orangeContent, blue] = await Promise.all((pages ?? []).map(pagePixels));
    // Slides 0 and 1 are on master 0: its logo is the uploaded one; slide 2 keeps the blue master's grey logo.
    for (const page of [orangeTitle, orangeContent])
      expect(near(colourAt(page!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), MAGENTA, 30)).toBe(true);
    expect(near(colourAt(blue!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), LOGO_GREY, 30)).toBe(true);
    expect(countNear(blue!, MAGENTA, SLIDE_CX, undefined, 30)).toBe(0);
    expect(texts[0]).toContain('Acme Shipping');
    expect(texts[1]).toContain('Acme Shipping');
    expect(texts[2]).not.toContain('Acme Shipping');
    // The badge is on layout 1 only: slide 1 uses it, slide 0 (Title Slide) does not.
    expect(texts[1]).toContain('Quarterly');
    expect(texts[0]).not.toContain('Quarterly');
    expect(texts[2]).not.toContain('Quarterly');
    expect(FOOTER_BOX.y).toBe(BADGE_BOX.y); // both on the bottom line the text checks read
  });

  it('counts masters in presentation order: index 1 is the blue master, whatever its part is called', async () => {
    const result = run(
      {
        masters: [
          {
            index: 1,
            shapes: [
              { name: 'Logo', content: 'teal.png' },
              { name: 'Footer Text', content: 'Blue only' },
            ],
          },
        ],
        slides: ALL_SLIDES,
      },
      ['teal.png'],
    );
    await expectValidPptx(result.bytes, template);
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster2.xml')).toContain('Blue only');
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster1.xml')).not.toContain('Blue only');
    const pages = await Promise.all((await renderToPngs(result.bytes)).map(pagePixels));
    expect(near(colourAt(pages[2]!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), TEAL, 30)).toBe(true);
    expect(near(colourAt(pages[0]!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), LOGO_GREY, 30)).toBe(true);
  });

  it('removes and hides shapes on a master as on a slide, and its picture goes with the removed logo', async () => {
    const result = run({
      masters: [
        { index: 0, shapes: [{ name: 'Logo', remove: true }] },
        { index: 1, shapes: [{ name: 'Footer Text', is_hidden: true }] },
      ],
      slides: ALL_SLIDES,
    });
    await expectValidPptx(result.bytes, template);
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster1.xml')).not.toContain('name="Logo"');
    expect(part(result.bytes, 'ppt/slideMasters/_rels/slideMaster1.xml.rels')).not.toContain('logo.png');
    // The blue master still shows the template's logo, so the image stays in the package.
    expect(Object.keys(unzipSync(result.bytes))).toContain('ppt/media/logo.png');
    expect(part(result.bytes, 'ppt/slideMasters/slideMaster2.xml')).toMatch(/name="Footer Text" hidden="1"/);
  });

  it('keeps the masters of two template_list entries of one file apart: each slide shows its own logo', async () => {
    const result = generate({
      files: new Map([
        ['harbour.pptx', template],
        ['copy.pptx', template.slice()],
        ['logo.png', magentaLogo],
        ['teal.png', tealLogo],
      ]),
      payload: {
        presentation: {
          template_list: [
            { template_id: 'acme', template: 'harbour.pptx' },
            { template_id: 'globex', template: 'copy.pptx', theme: { colors: { accent1: '#008C8C' } } },
          ],
          masters: [
            {
              template_id: 'acme',
              index: 0,
              tags: [{ key: 'company', value: 'Acme' }],
              shapes: [{ name: 'Logo', content: 'logo.png' }],
            },
            {
              template_id: 'globex',
              index: 0,
              tags: [{ key: 'company', value: 'Globex' }],
              shapes: [{ name: 'Logo', content: 'teal.png' }],
            },
          ],
          slides: [
            { template_id: 'acme', slide_index: 1 },
            { template_id: 'globex', slide_index: 1 },
            { template_id: 'acme', slide_index: 0 },
          ],
        },
      },
    });
    expect(result.warnings).toEqual([]);
    await expectValidPptx(result.bytes, [template, template]);
    const names = Object.keys(unzipSync(result.bytes));
    // Harbour's two masters, and the copy of the orange one the second entry's slide uses, with its own theme.
    expect(names.filter((n) => /^ppt\/slideMasters\/slideMaster\d+\.xml$/.test(n))).toHaveLength(3);
    expect(names.filter((n) => /^ppt\/theme\/theme\d+\.xml$/.test(n))).toHaveLength(3);
    const pages = await Promise.all((await renderToPngs(result.bytes)).map(pagePixels));
    expect(near(colourAt(pages[0]!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), MAGENTA, 30)).toBe(true);
    expect(near(colourAt(pages[1]!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), TEAL, 30)).toBe(true);
    expect(near(colourAt(pages[2]!, SLIDE_CX, LOGO_MIDDLE.x, LOGO_MIDDLE.y), MAGENTA, 30)).toBe(true);
    // Each copy of the master has its own footer: the tags of its own entry.
    const texts = await renderToPdfText(result.bytes);
    expect([texts[0], texts[1], texts[2]].map((t) => /Acme|Globex/.exec(t ?? '')?.[0])).toEqual([
      'Acme',
      'Globex',
      'Acme',
    ]);
    // The second entry's theme is its own: its title is teal, the first entry's keeps Harbour's orange.
    const titleBox = { x: 457_200, y: 300_000, cx: 8_229_600, cy: 1_100_000 };
    const teal = pages.map((page) => countNear(page, { r: 0, g: 140, b: 140 }, SLIDE_CX, titleBox));
    const orange = pages.map((page) => countNear(page, { r: 0xe3, g: 0x6c, b: 0x0a }, SLIDE_CX, titleBox));
    expect(teal[1]).toBeGreaterThan(100);
    expect(orange[1]).toBe(0);
    expect(teal[0]).toBe(0);
    expect(orange[0]).toBeGreaterThan(100);
  });

  it('refuses an index past the last master or layout, a shape a strict page lacks and a page named twice', () => {
    const out = engineErrorOf(() =>
      run(
        {
          masters: [{ index: 2, shapes: [{ name: 'Logo', content: 'logo.png' }] }],
          layouts: [
            { index: 1, shape_validation_mode: 'strict', shapes: [{ name: 'No Such Shape', content: 'x' }] },
          ],
          slides: ALL_SLIDES,
        },
        ['logo.png'],
      ),
    );
    expect(out.message).toContain(
      "presentation.masters[0].index: master index 2 is out of range: the template's slide masters are 2 (0–1)",
    );
    expect(out.message).toMatch(/presentation\.layouts\[0\]\.shapes\[0\]: .*No Such Shape/);
    const twice = engineErrorOf(() => run({ masters: [{ index: 0 }, { index: 0 }], slides: ALL_SLIDES }));
    expect(twice.message).toBe(
      'presentation.masters[1].index: master 0 is already filled by presentation.masters[0]; give all its shapes in one entry',
    );
    const noId = engineErrorOf(() =>
      generate({
        files: new Map([['harbour.pptx', template]]),
        payload: {
          presentation: {
            template_list: [{ template_id: 'a', template: 'harbour.pptx' }],
            masters: [{ index: 0 }],
            slides: [{ template_id: 'a', slide_index: 0 }],
          },
        },
      }),
    );
    expect(noId.message).toBe(
      'presentation.masters[0].template_id: expected one of the template_list ids ("a"), got nothing',
    );
  });

  it('says when a master entry fills a master no slide of the deck uses', () => {
    const result = generate({
      files: new Map([
        ['harbour.pptx', template],
        ['copy.pptx', template.slice()],
      ]),
      payload: {
        presentation: {
          template_list: [
            { template_id: 'a', template: 'harbour.pptx' },
            { template_id: 'b', template: 'copy.pptx' },
          ],
          masters: [
            { template_id: 'b', index: 1, shapes: [{ name: 'Footer Text', content: 'Never shown' }] },
          ],
          slides: [
            { template_id: 'a', slide_index: 0 },
            { template_id: 'b', slide_index: 0 },
          ],
        },
      },
    });
    expect(result.warnings).toContainEqual({
      path: 'presentation.masters[0]',
      message:
        'master 1 of the template is not in the deck: no slide of the deck uses it, so nothing was filled',
    });
  });
});
