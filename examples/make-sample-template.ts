/**
 * Writes examples/sample-template.pptx, the template the README's first example uses (the pieces it is made of
 * are in template-kit.ts):
 *   npx tsx examples/make-sample-template.ts [FOLDER]   (examples/ unless FOLDER is given)
 *
 * Slides: 0 "Title Slide" (Title, Subtitle with a {{company}} tag), 1 "Title and Content" (Title, Body
 * with two bullet levels, a "Footnote" text box), 2 "Closing" (a text box in a group).
 */
import { writeFileSync } from 'node:fs';
import {
  CONTENT_LAYOUT,
  DECKFORGE_COLOURS,
  para,
  placeholder,
  slide,
  textBox,
  TITLE_LAYOUT,
  writeDeck,
  xfrm,
} from './template-kit.js';
import { outputFolder } from './output-folder.js';

const slides = [
  slide(
    placeholder(2, 'Title', '<p:ph type="ctrTitle"/>', '', [para('Quarterly review')]) +
      placeholder(3, 'Subtitle', '<p:ph type="subTitle" idx="1"/>', '', [para('{{company}} · {{quarter}}')]),
  ),
  slide(
    placeholder(2, 'Title', '<p:ph type="title"/>', '', [para('Highlights')]) +
      placeholder(3, 'Body', '<p:ph idx="1"/>', '', [
        para('First point'),
        para('A detail', 1),
        para('Second point'),
      ]) +
      textBox(
        4,
        'Footnote',
        xfrm(838200, 6211888, 10515600, 369332),
        para('Source: internal figures', 0, '<a:rPr lang="en-US" sz="1200" i="1" dirty="0"/>'),
      ),
  ),
  slide(
    '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="2" name="Closing Group"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
      `<p:grpSpPr><a:xfrm><a:off x="2032000" y="2286000"/><a:ext cx="8128000" cy="2286000"/><a:chOff x="2032000" y="2286000"/><a:chExt cx="8128000" cy="2286000"/></a:xfrm></p:grpSpPr>` +
      textBox(
        3,
        'Closing Text',
        xfrm(2032000, 2286000, 8128000, 1143000),
        para('Thank you', 0, '<a:rPr lang="en-US" sz="4000" b="1" dirty="0"/>'),
      ) +
      textBox(4, 'Contact', xfrm(2032000, 3429000, 8128000, 1143000), para('{{contact}}')) +
      '</p:grpSp>',
  ),
];

const bytes = writeDeck({
  themeName: 'Deckforge Sample',
  colours: DECKFORGE_COLOURS,
  layouts: [TITLE_LAYOUT, CONTENT_LAYOUT],
  slides: slides.map((xml, i) => ({ xml, layout: i === 0 ? 1 : 2 })),
});
const target = new URL('sample-template.pptx', outputFolder());
writeFileSync(target, bytes);
console.log(`wrote ${target.pathname} (${bytes.length} bytes)`);
