/**
 * SVG safety: what makeSvgSafe keeps, removes and refuses, on the probes' files and on ordinary
 * SVGs. Pure: no renderer runs here (the HTTP test renders).
 */
import { describe, expect, it } from 'vitest';
import { assessImage, DEFAULT_IMAGE_LIMITS, makeSvgSafe, type SafeSvg } from '../../../src/engine/index.js';
import {
  activeSvg,
  filterBombSvg,
  filterThroughUsesSvg,
  hugeFlatPng,
  overwritingRleBmp,
  smallRleBmp,
  svgEmbedding,
} from '../../support/decks/hostile-images.js';
import * as img from '../../support/decks/test-images.js';

const LABEL = 'picture "x.svg"';
const svg = (text: string): Uint8Array => new TextEncoder().encode(text);

function safe(bytes: Uint8Array): SafeSvg {
  const result = makeSvgSafe(bytes, LABEL, DEFAULT_IMAGE_LIMITS);
  if ('refused' in result) throw new Error(`refused: ${result.refused}`);
  return result;
}

function refusal(bytes: Uint8Array): string {
  const result = makeSvgSafe(bytes, LABEL, DEFAULT_IMAGE_LIMITS);
  if (!('refused' in result)) throw new Error('expected a refusal');
  return result.refused;
}

describe('SVG safety', () => {
  it('removes scripts, handlers, outside references and stylesheet imports; keeps fragments; warns once', () => {
    const result = safe(activeSvg());
    const text = new TextDecoder().decode(result.svg);
    for (const gone of ['<script', 'onload', 'onclick', 'file:', 'attacker.test', 'javascript:', '<!DOCTYPE'])
      expect(text).not.toContain(gone);
    expect(text).toContain('<use href="#sq"/>');
    expect(text).toContain('fill: url(#g)');
    expect(text).toContain(`<circle r="2" fill="url('#g')" stroke="none"/>`);
    expect(result.warnings).toEqual([
      `${LABEL}: removed from the SVG for safety: event handlers, a script, references outside the SVG (file:, http: and other links)`,
    ]);
  });

  it('keeps an ordinary SVG byte for byte, at the full rendition size, without a warning', () => {
    const bytes = img.svg(120, 80);
    expect(safe(bytes)).toEqual({ svg: bytes, warnings: [], renditionLongSide: 2000 });
  });

  it('keeps a small PNG inside an SVG and counts its pixels', async () => {
    const bytes = svgEmbedding(await img.png(20, 20));
    expect(safe(bytes).svg).toBe(bytes);
  });

  it('refuses the probe’s 20 000 × 20 000 PNG inside a 100 × 100 SVG from its header', () => {
    expect(refusal(svgEmbedding(hugeFlatPng(20_000, 20_000)))).toBe(
      `the image inside ${LABEL} is 20000 × 20000 pixels, over the limit of 50,000,000 pixels for one image`,
    );
  });

  it('refuses the probe’s filter bomb at once, and renders a costly but bounded filter smaller', () => {
    const started = Date.now();
    expect(refusal(filterBombSvg())).toMatch(
      /^picture "x\.svg" uses SVG filters that cost too much to render/,
    );
    expect(Date.now() - started).toBeLessThan(500);
    const oneMorphology = svg(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><filter id="f"><feMorphology radius="1"/>' +
        '</filter><rect width="150" height="80" filter="url(#f)"/></svg>',
    );
    const side = safe(oneMorphology).renditionLongSide;
    expect(side).toBeGreaterThanOrEqual(500);
    expect(side).toBeLessThan(2000);
  });

  it('counts a filter once per <use> copy of the element using it', () => {
    expect(refusal(filterThroughUsesSvg(200))).toMatch(/uses SVG filters that cost too much to render/);
  });

  it('refuses a DTD that declares entities, and drops an external DOCTYPE', () => {
    expect(
      refusal(
        svg(
          '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
        ),
      ),
    ).toBe(`${LABEL} is an SVG with a DTD (entity declarations), refused for safety`);
  });
});

describe('RLE BMP', () => {
  it('refuses the probe’s BMP whose runs overwrite one row, from one pass over its data', () => {
    const assessed = assessImage(overwritingRleBmp(40), 'picture "rows.bmp"', DEFAULT_IMAGE_LIMITS);
    expect(assessed).toEqual({
      kind: 'refused',
      message:
        'picture "rows.bmp" is a BMP that cannot be read: its run-length data writes more pixels than its 50000000 × 1 header holds',
    });
  });

  it('lets a sound RLE BMP through to conversion', () => {
    expect(assessImage(smallRleBmp(), 'picture "ok.bmp"', DEFAULT_IMAGE_LIMITS)).toMatchObject({
      kind: 'convert',
      format: 'bmp',
    });
  });
});

/** An SVG with a rectangle that stays, and `inside` beside it. */
const around = (inside: string, rootAttributes = ''): Uint8Array =>
  svg(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"${rootAttributes}>` +
      `<rect id="keep" width="10" height="10"/>${inside}</svg>`,
  );
const removedWarning = (what: string) => `${LABEL}: removed from the SVG for safety: ${what}`;
const OUTSIDE = 'references outside the SVG (file:, http: and other links)';

describe('SVG safety: every construct the sanitiser removes, alone', () => {
  it.each([
    ['a <script>', around('<script>alert(1)</script>'), '<script', 'a script'],
    [
      '<foreignObject> (HTML inside SVG)',
      around(
        '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>',
      ),
      'foreignObject',
      'foreign (HTML) content',
    ],
    [
      '<set> giving href a javascript: URL',
      around('<a href="#keep"><set attributeName="href" to="javascript:alert(1)"/><text>x</text></a>'),
      'javascript:',
      'an animation of a link or an event handler',
    ],
    [
      '<set> giving xlink:href a URL',
      around('<a xlink:href="#keep"><set attributeName="xlink:href" to="https://attacker.test/"/></a>'),
      'attacker.test',
      'an animation of a link or an event handler',
    ],
    [
      '<animate> of an event handler',
      around('<animate attributeName="onclick" to="alert(1)"/>'),
      '<animate',
      'an animation of a link or an event handler',
    ],
    [
      'an event handler on an element',
      around('<circle r="2" onmouseover="alert(1)"/>'),
      'onmouseover',
      'event handlers',
    ],
    ['an event handler on the root', around('', ' onload="alert(1)"'), 'onload', 'event handlers'],
    ['an http: link', around('<a href="http://attacker.test/"><text>x</text></a>'), 'attacker.test', OUTSIDE],
    [
      'a javascript: link',
      around('<a xlink:href="javascript:alert(1)"><text>x</text></a>'),
      'javascript:',
      OUTSIDE,
    ],
    ['a file: image', around('<image width="5" height="5" href="file:///etc/passwd"/>'), 'file:', OUTSIDE],
    [
      'a url() to a host in an attribute',
      around('<rect width="5" height="5" fill="url(https://attacker.test/#p)"/>'),
      'attacker.test',
      OUTSIDE,
    ],
    [
      'a url() to a host in a <style>',
      around('<style>rect { fill: url(https://attacker.test/p.svg#p) }</style>'),
      'attacker.test',
      OUTSIDE,
    ],
    [
      'an @import in a <style>',
      around('<style>@import url(https://attacker.test/s.css);</style>'),
      '@import',
      OUTSIDE,
    ],
    [
      'a data: URL of HTML',
      around('<image width="5" height="5" href="data:text/html;base64,PHNjcmlwdD4="/>'),
      'data:text/html',
      OUTSIDE,
    ],
    [
      'a data: "PNG" that is something else',
      around('<image width="5" height="5" href="data:image/png;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+"/>'),
      'data:image/png',
      'embedded data that is not a PNG, JPEG or GIF image',
    ],
    ['a processing instruction inside', around('<?php echo 1; ?>'), '<?php', 'a processing instruction'],
    [
      'an xml-stylesheet in the prolog',
      svg(`<?xml-stylesheet href="https://attacker.test/s.css"?>${new TextDecoder().decode(around(''))}`),
      'attacker.test',
      'an external stylesheet',
    ],
  ])('%s is removed and named in the warning', (_what, bytes, gone, named) => {
    const result = safe(bytes);
    const text = new TextDecoder().decode(result.svg);
    expect(text).not.toContain(gone);
    expect(text).toContain('<rect id="keep" width="10" height="10"/>');
    expect(result.warnings).toEqual([removedWarning(named)]);
  });

  it('keeps an animation of something harmless, and links to fragments of the SVG itself', () => {
    const bytes = around('<a href="#keep"><animate attributeName="opacity" from="0" to="1" dur="1s"/></a>');
    expect(safe(bytes)).toEqual({ svg: bytes, warnings: [], renditionLongSide: 2000 });
  });

  it('refuses an SVG whose embedded images together pass the pixel limit, each of them within it', async () => {
    const limits = { ...DEFAULT_IMAGE_LIMITS, maxPixels: 1_000 };
    const uri = `data:image/png;base64,${Buffer.from(await img.png(20, 20)).toString('base64')}`;
    const images = (count: number) =>
      around(Array.from({ length: count }, () => `<image width="5" height="5" href="${uri}"/>`).join(''));
    expect(makeSvgSafe(images(2), LABEL, limits)).not.toHaveProperty('refused');
    expect(makeSvgSafe(images(5), LABEL, limits)).toEqual({
      refused: `${LABEL} embeds images of 2,000 pixels in all, over the limit of 1,000 pixels for one image`,
    });
  });
});
