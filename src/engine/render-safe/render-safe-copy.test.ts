/**
 * The render-safe copy of a deck, read back part by part (docs/security.md, "What LibreOffice gets"): always a
 * fresh package of the parts it checked, from a file that is one archive; parts judged by their bytes,
 * relationships by the elements that use them, XML in its own encoding whatever its name; hyperlinks, fields
 * and local URLs disarmed; one slide list, and the page count a renderer must make of it; embedded fonts handed
 * beside the copy, checked, and never inside it. The rendering of such
 * decks, with a real LibreOffice in its sandbox, is test/adapters/libreoffice/render-isolation.test.ts; through the server,
 * test/http/render-secrets.test.ts.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { engineErrorOf } from '../../../test/support/checks/engine-error.js';
import { expectValidPptx, newPptxProblems } from '../../../test/support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../../test/support/decks/layouts-template.js';
import {
  attacks,
  CLICKABLE_URL,
  linkingDeck,
  type LinkTargets,
} from '../../../test/support/decks/linking-decks.js';
import { editPackage } from '../../../test/support/decks/package-edit.js';
import { previewDeck, slideWord } from '../../../test/support/decks/preview-decks.js';
import * as trick from '../../../test/support/decks/render-tricks.js';
import * as polyglot from '../../../test/support/decks/zip-polyglots.js';
import { BLUE, png, pngClaiming, tiff } from '../../../test/support/decks/test-images.js';
import { systemFont, withFamilyName } from '../../../test/support/decks/test-fonts.js';
import { generate } from '../generate.js';
import { renderSafeCopy } from './render-safe-copy.js';

const TARGETS: LinkTargets = {
  canary: 'http://127.0.0.1:9',
  localImage: '/srv/deckforge/secret.png',
  localText: '/srv/deckforge/secret.csv',
  secretVariable: 'DATABASE_URL',
};
const SECRETS: trick.RenderTargets = {
  pictures: ['/srv/deckforge/data/blobs/preview.png', '/var/tmp/secret.png'],
  canary: 'http://127.0.0.1:9',
};
const LIMITS = { maxPixels: 50_000_000 };

/** Every part of `bytes`, as text, by item name. */
function parts(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** The slide part and its relationships' part of the slide titled slideWord(i). */
function slideOf(files: Record<string, string>, i: number): { xml: string; rels: string } {
  const name = Object.keys(files).find(
    (item) => /^ppt\/slides\/[^/]+$/.test(item) && files[item]?.includes(`>${slideWord(i)}<`),
  ) as string;
  const rels = `ppt/slides/_rels/${name.slice('ppt/slides/'.length)}.rels`;
  return { xml: files[name] as string, rels: files[rels] as string };
}

/** Problems the copy has that `deck` has not, but the r:ids of dropped relationships `ids` left dangling. */
async function problemsBesides(copy: Uint8Array, deck: Uint8Array, ids: RegExp): Promise<string[]> {
  return (await newPptxProblems(copy, deck)).filter(
    (problem) =>
      !(
        (/^invariant: r-attr-unresolved /.test(problem) || /Sem_InvalidRelationshipId/.test(problem)) &&
        ids.test(problem)
      ),
  );
}

describe('a fresh package of what was checked', () => {
  it('writes every part again, valid against the deck, with the page count a renderer must make', async () => {
    const deck = previewDeck(3, { hidden: [1] });
    await expectValidPptx(deck, layoutsTemplate());
    const copy = renderSafeCopy(deck, LIMITS);
    expect(copy.neutralised).toBe(0);
    expect(copy.visibleSlides).toBe(2);
    expect(copy.bytes).not.toBe(deck);
    expect(Object.keys(unzipSync(copy.bytes)).sort()).toEqual(Object.keys(unzipSync(deck)).sort());
    await expectValidPptx(copy.bytes, deck);
  });

  it.each([
    [
      'two end-of-central-directory records',
      () => polyglot.twoEndRecords(previewDeck(1), previewDeck(3)),
      /two end-of-central-directory records/,
    ],
    [
      'data before the archive',
      () => polyglot.dataBefore(previewDeck(1), strToU8('%PDF-1.4 junk ')),
      /data comes before the archive/,
    ],
    [
      'data after the archive',
      () => polyglot.dataAfter(previewDeck(1), strToU8('PK trailing deck')),
      /data follows the archive/,
    ],
    [
      'a local header that disagrees with its central record',
      () => polyglot.lyingLocalHeader(polyglot.stored(previewDeck(1))),
      /a local header disagrees/,
    ],
  ])('refuses a file that is more than one archive: %s', (_, make, why) => {
    const error = engineErrorOf(() => renderSafeCopy(make(), LIMITS));
    expect(error.code).toBe('INVALID_TEMPLATE');
    expect(error.message).toMatch(/^the file is not one zip archive \(/);
    expect(error.message).toMatch(why);
  });

  it('takes a line break or zero padding after the archive (some downloads add one)', () => {
    const deck = polyglot.dataAfter(previewDeck(1), Uint8Array.from([0x0a, 0, 0x20]));
    expect(renderSafeCopy(deck, LIMITS).visibleSlides).toBe(1);
  });

  it('keeps one slide list: a second one at the root, in notesMasterIdLst, an extension or mc:AlternateContent counts nothing', () => {
    const deck = trick.withTricks(previewDeck(2), trick.secondSlideLists(20));
    const before = parts(deck)['ppt/presentation.xml'] as string;
    expect(before.match(/<p:sldId /g)).toHaveLength(2 + 5 * 20 * 2);
    const copy = renderSafeCopy(deck, LIMITS);
    expect(copy.visibleSlides).toBe(2);
    const after = parts(copy.bytes)['ppt/presentation.xml'] as string;
    expect(after.match(/<p:sldId /g)).toHaveLength(2);
    expect(after.match(/<p:sldIdLst>/g)).toHaveLength(1);
  });
});

describe('parts judged by their bytes', () => {
  it('leaves out an SVG stored under a .png name and a playlist behind a picture, and drops what used them', async () => {
    const deck = trick.withTricks(
      previewDeck(1),
      trick.svgNamedPng(SECRETS),
      trick.playlistAsPicture(SECRETS),
    );
    const copy = renderSafeCopy(deck, LIMITS);
    const after = parts(copy.bytes);
    expect(Object.keys(after)).not.toContain('ppt/media/photo-svg.png');
    expect(Object.keys(after)).not.toContain('ppt/media/photo-hls.png');
    const { rels } = slideOf(after, 0);
    expect(rels).not.toMatch(/rIdSvg|rIdHls/);
    expect(Object.values(after).join('\n')).not.toMatch(/file:\/\/|EXTM3U|127\.0\.0\.1/);
    expect(await problemsBesides(copy.bytes, deck, /rIdSvg|rIdHls/)).toEqual([]);
  });

  it('holds every raster picture to the pixel budget from its header, whatever its name or content type', () => {
    for (const name of ['ppt/media/texture.bin', 'ppt/media/noname', 'docProps/thumbnail.jpeg']) {
      const deck = editPackage(previewDeck(1), (files) => {
        files[name] = pngClaiming(20_000, 20_000);
      });
      expect(engineErrorOf(() => renderSafeCopy(deck, LIMITS)).message).toBe(
        `/${name}: the picture is 20000 × 20000 pixels, over the limit of 50,000,000 pixels for one image`,
      );
    }
    const used = trick.withTricks(previewDeck(1), trick.hugePictureNamedBin(pngClaiming(20_000, 20_000)));
    expect(engineErrorOf(() => renderSafeCopy(used, LIMITS)).code).toBe('LIMIT_EXCEEDED');
    expect(renderSafeCopy(used, { maxPixels: 400_000_000 }).visibleSlides).toBe(1);
  });

  it('reads the size of TIFF and WebP pictures from their headers too', () => {
    // A little-endian TIFF whose only image directory says 9000 × 8000 (ImageWidth and ImageLength, LONG).
    const big = Uint8Array.from([
      0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0, 0, 1, 4, 0, 1, 0, 0, 0, 0x28, 0x23, 0, 0, 1, 1, 4, 0, 1, 0, 0, 0,
      0x40, 0x1f, 0, 0, 0, 0, 0, 0,
    ]);
    const deck = editPackage(previewDeck(1), (files) => {
      files['ppt/media/scan.dat'] = big;
    });
    expect(engineErrorOf(() => renderSafeCopy(deck, LIMITS)).message).toMatch(
      /^\/ppt\/media\/scan\.dat: the picture is 9000 × 8000 pixels/,
    );
    const vp8x = Uint8Array.from([
      ...strToU8('RIFF'),
      0,
      0,
      0,
      0,
      ...strToU8('WEBPVP8X'),
      10,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0x1f,
      0x4e,
      0,
      0x1f,
      0x4e,
      0,
    ]);
    const webp = editPackage(previewDeck(1), (files) => {
      files['ppt/media/photo.webp.png'] = vp8x;
    });
    expect(engineErrorOf(() => renderSafeCopy(webp, LIMITS)).message).toMatch(
      /the picture is 20000 × 20000 pixels/,
    );
  });

  it('refuses a PostScript picture without a preview, and draws a DOS EPS file as its TIFF preview', async () => {
    const plain = trick.withTricks(previewDeck(1), trick.postscriptPicture('/etc/passwd'));
    const error = engineErrorOf(() => renderSafeCopy(plain, LIMITS));
    expect(error.code).toBe('INVALID_IMAGE');
    expect(error.message).toMatch(
      /^\/ppt\/media\/drawing\.eps: the picture is PostScript \(EPS\) without a preview/,
    );
    const preview = await tiff(40, 30, BLUE);
    const withPreview = editPackage(plain, (files) => {
      files['ppt/media/drawing.eps'] = trick.dosEps('/etc/passwd', preview);
    });
    const copy = unzipSync(renderSafeCopy(withPreview, LIMITS).bytes);
    expect(copy['ppt/media/drawing.eps']).toEqual(preview);
  });

  it('leaves out audio and video parts, and the XML part nothing reads that does not parse', () => {
    const deck = editPackage(previewDeck(1), (files) => {
      files['ppt/media/clip.png'] = Uint8Array.from([0, 0, 0, 0x18, ...strToU8('ftypisom'), 0, 0, 0, 0]);
      files['ppt/media/song.bin'] = strToU8('ID3\u0004\u0000\u0000\u0000\u0000');
      files['ppt/drawings/vmlDrawing1.vml'] = strToU8('<!DOCTYPE x [<!ENTITY e "e">]><xml>&e;</xml>');
    });
    const copy = renderSafeCopy(deck, LIMITS);
    expect(Object.keys(unzipSync(copy.bytes))).not.toEqual(expect.arrayContaining(['ppt/media/clip.png']));
    expect(Object.keys(unzipSync(copy.bytes)).filter((name) => /clip|song|vmlDrawing/.test(name))).toEqual(
      [],
    );
    expect(copy.neutralised).toBe(3);
  });

  it('refuses an XML part it cannot read when a renderer would follow a relationship to it', () => {
    const deck = editPackage(previewDeck(1), (files) => {
      const slide = trick.slideItems(files).slides[0] as string;
      files[slide] = strToU8('<?xml version="1.0"?><!DOCTYPE p:sld [<!ENTITY e "x">]><p:sld/>');
    });
    expect(engineErrorOf(() => renderSafeCopy(deck, LIMITS)).code).toBe('UNSAFE_XML');
  });
});

describe('XML parts in their own encoding, whatever their name', () => {
  it('disarms a field of type "file" in a UTF-16 part and in a part not named .xml, and writes them as UTF-8', () => {
    const deck = trick.withTricks(previewDeck(2), trick.fieldInUtf16Part, trick.fieldInPartNotNamedXml);
    const copy = renderSafeCopy(deck, LIMITS);
    expect(copy.visibleSlides).toBe(2);
    const after = parts(copy.bytes);
    for (const [i, words] of [
      [0, 'FieldInUtf16'],
      [1, 'FieldNotXml'],
    ] as const) {
      const { xml } = slideOf(after, i);
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>/);
      expect(xml).toContain(
        `<a:fld id="{5C2E3A51-2D1A-4B7E-9F3C-1A2B3C4D5E6F}"><a:rPr lang="en-US"/><a:t>${words}</a:t></a:fld>`,
      );
    }
  });

  it('reads a UTF-16 part without a byte-order mark and a part declared ISO-8859-1; refuses UTF-32 and a declaration that lies', () => {
    const withSlide = (encode: (xml: string) => Uint8Array): Uint8Array =>
      editPackage(previewDeck(1), (files) => {
        const slide = trick.slideItems(files).slides[0] as string;
        const xml = strFromU8(files[slide] as Uint8Array).replace('<a:t>MarkerA0', '<a:t>Marker\u00e9A0');
        files[slide] = encode(xml);
      });
    const utf16 = (xml: string): Uint8Array =>
      new Uint8Array(Buffer.from(xml.replace('UTF-8', 'UTF-16'), 'utf16le'));
    const latin1 = (xml: string): Uint8Array =>
      new Uint8Array(Buffer.from(xml.replace('UTF-8', 'ISO-8859-1'), 'latin1'));
    for (const encode of [utf16, latin1]) {
      const copied = parts(renderSafeCopy(withSlide(encode), LIMITS).bytes);
      const slide = Object.values(copied).find((xml) => xml.includes('<a:t>Marker\u00e9A0</a:t>'));
      expect(slide).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>/);
    }
    const utf32 = withSlide((xml) => {
      const out = new Uint8Array(xml.length * 4);
      [...xml].forEach((c, i) => (out[i * 4] = c.charCodeAt(0) & 0xff));
      return out;
    });
    expect(engineErrorOf(() => renderSafeCopy(utf32, LIMITS)).message).toMatch(/XML in the encoding UTF-32/);
    const lying = withSlide((xml) => strToU8(xml.replace('UTF-8', 'UTF-16')));
    expect(engineErrorOf(() => renderSafeCopy(lying, LIMITS)).message).toMatch(
      /declares the encoding utf-16/,
    );
  });
});

describe('relationships judged by the elements that use them', () => {
  it('drops every relationship that reaches outside, one attack class per slide, and keeps the rest', async () => {
    const deck = linkingDeck(TARGETS, await png(40, 30));
    const copy = renderSafeCopy(deck, LIMITS);
    const before = parts(deck);
    const after = parts(copy.bytes);
    const names = Object.keys(attacks(TARGETS));
    names.forEach((name, i) => {
      if (name !== 'field of type file') expect(slideOf(before, i).rels, name).toMatch(/rIdAttack1/);
      expect(slideOf(after, i).rels, name).not.toMatch(/TargetMode="External"/);
      expect(slideOf(after, i).rels, name).toMatch(/slideLayout/);
    });
    // Embedded fallbacks stay (the OLE objects' and the video's poster): internal, an image.
    expect(slideOf(after, names.indexOf('linked video')).rels).toMatch(/Target="..\/media\/fallback.png"/);
    const field = slideOf(after, names.indexOf('field of type file')).xml;
    expect(field).toContain(
      '<a:fld id="{5C2E3A51-2D1A-4B7E-9F3C-1A2B3C4D5E6F}"><a:t>SavedFieldText</a:t></a:fld>',
    );
    expect(after['ppt/_rels/presentation.xml.rels']).not.toMatch(/vbaProject/);
    expect(slideOf(after, names.length).rels).toContain(`Target="${CLICKABLE_URL}" TargetMode="External"`);
    const problems = await problemsBesides(copy.bytes, deck, /rIdAttack\d/);
    for (const problem of problems)
      expect(problem).toMatch(/^invariant: part-unreachable \/ppt\/vbaProject\.bin: /);
  });

  it('drops an OLE object and a video behind image relationships, and keeps the poster picture beside them', async () => {
    const deck = trick.withTricks(previewDeck(1), trick.lyingRelationshipTypes(await png(40, 30, BLUE)));
    const { rels } = slideOf(parts(renderSafeCopy(deck, LIMITS).bytes), 0);
    expect(rels).not.toMatch(/rIdLyingOle|rIdLyingVideo/);
    expect(rels).toMatch(/Id="rIdPoster"/);
  });

  it('keeps hyperlinks to web pages, mail addresses and other slides, and removes every other one', () => {
    const deck = editPackage(
      trick.withTricks(previewDeck(2), trick.hostileHyperlinks('/var/tmp/secret.txt')),
      (files) => {
        const [first, second] = trick.slideItems(files).slides as [string, string];
        trick.addToSlide(
          files,
          first,
          trick.textBox(
            970,
            '<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="rIdJump" action="ppaction://hlinksldjump"/></a:rPr><a:t>Next</a:t></a:r>',
          ),
          [
            [
              'rIdJump',
              'http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide',
              `../slides/${second.slice('ppt/slides/'.length)}`,
              false,
            ],
          ],
        );
      },
    );
    const { xml, rels } = slideOf(parts(renderSafeCopy(deck, LIMITS).bytes), 0);
    expect(xml.match(/<a:hlinkClick [^>]*>/g)).toEqual([
      '<a:hlinkClick r:id="rIdWeb"/>',
      '<a:hlinkClick r:id="rIdMail"/>',
      '<a:hlinkClick r:id="rIdJump" action="ppaction://hlinksldjump"/>',
    ]);
    // The words of removed links stay as text.
    for (const words of ['Quit command', 'Local file', 'Internal command', 'A program', 'A macro'])
      expect(xml).toContain(words);
    expect(rels).not.toMatch(/uno|file:|usr\/bin/);
    expect(rels).toMatch(/Id="rIdJump"/);
  });

  it('empties file: URLs in every part kind, and drops what links by them', () => {
    const deck = trick.withTricks(previewDeck(1), trick.fileUrlsEverywhere(SECRETS));
    const copy = renderSafeCopy(deck, LIMITS);
    const after = Object.values(parts(copy.bytes)).join('\n');
    expect(Object.values(parts(deck)).join('\n')).toMatch(/file:\/\/\/srv/);
    expect(after).not.toMatch(/file:|srv\/deckforge|HyperlinkBase>./);
    expect(after).not.toMatch(/rIdFileUrl\d"[^>]*Target|rIdThemeFile"[^>]*Target|rIdRelative"[^>]*Target/);
  });
});

describe('linear in the deck', () => {
  it('copies 2 000 distinct links, and ten times more unused external relationships in about the same time', () => {
    const links = renderSafeCopy(trick.withTricks(previewDeck(1), trick.manyHyperlinks(2000)), LIMITS);
    expect(slideOf(parts(links.bytes), 0).rels.match(/TargetMode="External"/g)).toHaveLength(2000);
    // A slide of 4 MB with 100, then 1 000, relationships nothing uses: work per relationship that reads the
    // slide again (as the copy once did) takes ten times longer for the second; one pass, about as long.
    const fastest = (count: number): { ms: number; neutralised: number } => {
      const deck = trick.withTricks(previewDeck(1), trick.unusedHyperlinks(count, 4_000_000));
      let ms = Infinity;
      let neutralised = 0;
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        neutralised = renderSafeCopy(deck, LIMITS).neutralised;
        ms = Math.min(ms, performance.now() - started);
      }
      return { ms, neutralised };
    };
    const few = fastest(100);
    const many = fastest(1000);
    expect({ few: few.neutralised, many: many.neutralised }).toEqual({ few: 100, many: 1000 });
    expect(many.ms, `${few.ms.toFixed(0)} ms for 100, ${many.ms.toFixed(0)} ms for 1 000`).toBeLessThan(
      3 * few.ms,
    );
  });
});

it('leaves the deck it came from unchanged (what a template links to is its owner’s)', () => {
  const deck = trick.withTricks(previewDeck(1), trick.fileUrlsEverywhere(SECRETS));
  const before = Uint8Array.from(deck);
  renderSafeCopy(deck, LIMITS);
  expect(deck).toEqual(before);
  expect(zipSync(unzipSync(deck))).toBeTruthy();
});

describe('the fonts a deck embeds', () => {
  const font = withFamilyName(systemFont('Carlito-Regular.ttf'), 'Deckforge Probe Sans');
  const deck = generate({
    files: new Map([
      ['template.pptx', layoutsTemplate()],
      ['Probe.ttf', font],
    ]),
    payload: {
      presentation: {
        template: 'template.pptx',
        fonts: ['Probe.ttf'],
        theme: { fonts: { minor: 'Deckforge Probe Sans' } },
        slides: [{ slide_index: 0 }],
      },
    },
  }).bytes;

  it('are handed beside the copy, checked, and never inside it: no font part, no font relationship', () => {
    expect(Object.keys(unzipSync(deck))).toContain('ppt/fonts/font1.fntdata');
    const copy = renderSafeCopy(deck, LIMITS);
    expect(copy.fonts.map(({ fileName, family }) => [fileName, family])).toEqual([
      ['font-1.ttf', 'Deckforge Probe Sans'],
    ]);
    // The uploaded file as it was, out of its Embedded OpenType wrapper.
    expect(Buffer.from(copy.fonts[0]?.bytes ?? []).equals(Buffer.from(font))).toBe(true);
    expect(copy.warnings).toEqual([]);
    const files = parts(copy.bytes);
    expect(Object.keys(files).filter((name) => /fonts\//.test(name))).toEqual([]);
    expect(files['ppt/_rels/presentation.xml.rels']).not.toContain('relationships/font"');
  });

  it('a font part that is not a font is left out of the copy too, with a warning naming it', () => {
    const lying = editPackage(deck, (files) => {
      files['ppt/fonts/font1.fntdata'] = strToU8(
        'not a font at all, but long enough to be read as one '.repeat(4),
      );
    });
    const copy = renderSafeCopy(lying, LIMITS);
    expect(copy.fonts).toEqual([]);
    expect(copy.warnings).toEqual([
      {
        path: '/ppt/fonts/font1.fntdata',
        message:
          'the embedded font "Deckforge Probe Sans" (regular) is not drawn in the PDF and slide images: the font part is neither an Embedded OpenType font nor a TrueType or OpenType file',
      },
    ]);
    expect(Object.keys(unzipSync(copy.bytes)).filter((name) => /fonts\//.test(name))).toEqual([]);
  });
});
