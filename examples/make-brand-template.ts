/**
 * Writes examples/brand.pptx, the template of the picture examples in docs/payload-pictures.md, and the pictures
 * the examples upload, examples/logo.png and examples/team.jpg (example-images.ts draws them):
 *   npx tsx examples/make-brand-template.ts [FOLDER]   (examples/ unless FOLDER is given)
 *
 * Slides:
 *   0 "Title Slide": "Logo" (a picture: the Acme logo), "Title", "Subtitle", "Band" (a coloured bar)
 *   1 "Title and Content": "Title", "Body" (three points)
 *   2 "Picture with Caption": "Title", "Hero photo" (an empty picture placeholder), "Caption", "Logo", "Badge"
 *     (an ellipse with text, which an image fills)
 */
import { writeFileSync } from 'node:fs';
import { landscapeJpeg, logoPng } from './example-images.js';
import {
  CONTENT_LAYOUT,
  para,
  picture,
  placeholder,
  REL,
  slide,
  TITLE_LAYOUT,
  writeDeck,
  xfrm,
  type ColourScheme,
  type Layout,
} from './template-kit.js';
import { outputFolder } from './output-folder.js';

const BRAND: ColourScheme = {
  name: 'Acme',
  dk1: '1F2937',
  dk2: '134E4A',
  lt2: 'ECFDF5',
  accents: ['0F766E', 'F59E0B', '7C3AED', 'DC2626', '2563EB', '65A30D'],
  fonts: { major: 'Calibri Light', minor: 'Calibri' },
};

const PICTURE_LAYOUT: Layout = {
  name: 'Picture with Caption',
  type: 'picTx',
  shapes:
    placeholder(2, 'Title 1', '<p:ph type="title"/>', xfrm(838200, 457200, 3932237, 1600200), [
      para('Click to edit title'),
    ]) +
    placeholder(
      3,
      'Picture Placeholder 2',
      '<p:ph type="pic" idx="1"/>',
      xfrm(5183188, 987425, 6172200, 4873625),
      [],
      '<a:lstStyle><a:lvl1pPr marL="0" indent="0"><a:buNone/><a:defRPr sz="3200"/></a:lvl1pPr></a:lstStyle>',
    ) +
    placeholder(
      4,
      'Text Placeholder 3',
      '<p:ph type="body" sz="half" idx="2"/>',
      xfrm(838200, 2057400, 3932237, 3811588),
      [para('Click to edit text')],
      '<a:lstStyle><a:lvl1pPr marL="0" indent="0"><a:buNone/><a:defRPr sz="1800"/></a:lvl1pPr></a:lstStyle>',
    ),
};

const LOGO_SIZE = { cx: 2194560, cy: 731520 }; // 2.4 × 0.8 in, the logo's 3:1
const logo = (id: number, x: number, y: number, scale = 1): string =>
  picture(id, 'Logo', 'rId2', xfrm(x, y, LOGO_SIZE.cx * scale, LOGO_SIZE.cy * scale), 'Acme logo');

const band =
  '<p:sp><p:nvSpPr><p:cNvPr id="5" name="Band"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>' +
  `<p:spPr>${xfrm(0, 6400800, 12192000, 457200)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:ln><a:noFill/></a:ln></p:spPr></p:sp>`;

const badge =
  '<p:sp><p:nvSpPr><p:cNvPr id="7" name="Badge"/><p:cNvSpPr/><p:nvPr/></p:nvSpPr>' +
  `<p:spPr>${xfrm(10515600, 594360, 1097280, 1097280)}<a:prstGeom prst="ellipse"><a:avLst/></a:prstGeom><a:solidFill><a:schemeClr val="accent2"/></a:solidFill><a:ln w="38100"><a:solidFill><a:schemeClr val="bg1"/></a:solidFill></a:ln></p:spPr>` +
  '<p:txBody><a:bodyPr anchor="ctr"/><a:lstStyle/><a:p><a:pPr algn="ctr"/><a:r><a:rPr lang="en-US" sz="2000" b="1" dirty="0"><a:solidFill><a:schemeClr val="bg1"/></a:solidFill></a:rPr><a:t>2026</a:t></a:r></a:p></p:txBody></p:sp>';

const emptyPicture =
  '<p:sp><p:nvSpPr><p:cNvPr id="3" name="Hero photo"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="pic" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>';

const slides = [
  {
    xml: slide(
      logo(4, 9159240, 5486400) +
        placeholder(2, 'Title', '<p:ph type="ctrTitle"/>', '', [para('Acme Corporation')]) +
        placeholder(3, 'Subtitle', '<p:ph type="subTitle" idx="1"/>', '', [para('Brand guidelines · 2026')]) +
        band,
    ),
    layout: 1,
    rels: [['rId2', `${REL}/image`, '../media/image1.png']] as [string, string, string][],
  },
  {
    xml: slide(
      placeholder(2, 'Title', '<p:ph type="title"/>', '', [para('Our voice')]) +
        placeholder(3, 'Body', '<p:ph idx="1"/>', '', [
          para('Plain words, short sentences'),
          para('Figures before adjectives'),
          para('One idea per slide'),
        ]),
    ),
    layout: 2,
  },
  {
    xml: slide(
      placeholder(2, 'Title', '<p:ph type="title"/>', '', [para('The team')]) +
        emptyPicture +
        placeholder(4, 'Caption', '<p:ph type="body" sz="half" idx="2"/>', '', [
          para('Forty people in three offices, one roof terrace.'),
        ]) +
        logo(6, 838200, 5852160, 0.6) +
        badge,
    ),
    layout: 3,
    rels: [['rId2', `${REL}/image`, '../media/image1.png']] as [string, string, string][],
  },
];

const bytes = writeDeck({
  themeName: 'Acme Brand',
  colours: BRAND,
  layouts: [TITLE_LAYOUT, CONTENT_LAYOUT, PICTURE_LAYOUT],
  slides,
  parts: [{ name: 'ppt/media/image1.png', data: await logoPng('ACME', '#0F766E', '#F59E0B') }],
  defaults: { png: 'image/png' },
});
const files: [string, Uint8Array][] = [
  ['brand.pptx', bytes],
  ['logo.png', await logoPng('Globex', '#2563EB', '#F59E0B')],
  ['team.jpg', await landscapeJpeg()],
];
for (const [name, data] of files) {
  const target = new URL(name, outputFolder());
  writeFileSync(target, data);
  console.log(`wrote ${target.pathname} (${data.length} bytes)`);
}
