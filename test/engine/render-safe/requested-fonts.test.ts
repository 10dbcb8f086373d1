/** requestedFonts: the Latin families a deck asks for, from its themes, masters, layouts and slides. */
import { expect, it } from 'vitest';
import { requestedFonts } from '../../../src/engine/index.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../../support/decks/layouts-template.js';
import { editPackage } from '../../support/decks/package-edit.js';
import { strFromU8, strToU8 } from 'fflate';

it('lists the theme fonts of the layouts template once each, without theme references', () => {
  const fonts = requestedFonts(layoutsTemplate());
  expect(fonts).toContain('Calibri');
  expect(fonts.some((f) => f.startsWith('+'))).toBe(false);
  expect(new Set(fonts.map((f) => f.toLowerCase())).size).toBe(fonts.length);
});

it('adds the font of a run on a slide, its entities decoded', async () => {
  const bytes = editPackage(layoutsTemplate(), (files) => {
    const slide = Object.keys(files).find((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)) as string;
    files[slide] = strToU8(
      strFromU8(files[slide] as Uint8Array).replace(
        '<a:rPr lang="en-US" dirty="0"/>',
        '<a:rPr lang="en-US" dirty="0"><a:latin typeface="Gill Sans &amp; Co" pitchFamily="34"/></a:rPr>',
      ),
    );
  });
  const fonts = requestedFonts(bytes);
  expect(fonts).toContain('Gill Sans & Co');
  await expectValidPptx(bytes, layoutsTemplate());
});
