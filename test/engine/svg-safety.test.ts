/**
 * SVG safety (issue 21): what makeSvgSafe keeps, removes and refuses, on the probes' files and on ordinary
 * SVGs. Pure: no renderer runs here (the HTTP test renders).
 */
import { describe, expect, it } from 'vitest';
import { assessImage, DEFAULT_IMAGE_LIMITS, makeSvgSafe, type SafeSvg } from '../../src/engine/index.js';
import {
  activeSvg,
  filterBombSvg,
  filterThroughUsesSvg,
  hugeFlatPng,
  overwritingRleBmp,
  smallRleBmp,
  svgEmbedding,
} from '../support/decks/hostile-images.js';
import * as img from '../support/decks/test-images.js';

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
