/**
 * Harbour (harbour-template.ts, 4:3) with what a brand fills on its masters and layouts: each of its two slide
 * masters gets a "Logo" picture in the top right corner (a grey 160 × 80 px PNG, no placeholder: it shows on
 * every slide of that master) and a "Footer Text" text box at the bottom left reading "{{company}}"; the orange
 * master's "Title and Content" layout (layout index 1, used by slide 1) gets a "Layout Badge" text box. Slides:
 * 0 orange "Title Slide", 1 orange "Title and Content", 2 blue "Title and Content".
 */
import { strFromU8, strToU8 } from 'fflate';
import { harbourTemplate } from './harbour-template.js';
import { editPackage } from './package-edit.js';
import { png, type Rgb } from './test-images.js';

export const LOGO_GREY: Rgb = { r: 128, g: 128, b: 128 };
/** Where the logo sits on every slide of a master, in EMU (the slide is 9 144 000 × 6 858 000). */
export const LOGO_BOX = { x: 7_500_000, y: 150_000, cx: 1_400_000, cy: 700_000 };
/** The footer text box on each master and the badge on layout 1, in EMU. */
export const FOOTER_BOX = { x: 457_200, y: 6_200_000, cx: 4_000_000, cy: 450_000 };
export const BADGE_BOX = { x: 6_000_000, y: 6_200_000, cx: 2_700_000, cy: 450_000 };

const textBox = (id: number, name: string, box: typeof FOOTER_BOX, text: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
  `<p:spPr><a:xfrm><a:off x="${box.x}" y="${box.y}"/><a:ext cx="${box.cx}" cy="${box.cy}"/></a:xfrm>` +
  '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr wrap="square"/><a:lstStyle/>' +
  `<a:p><a:r><a:rPr lang="en-GB" sz="1400" dirty="0"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;

const logo = (id: number): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Logo" descr="Harbour logo"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
  '<p:blipFill><a:blip r:embed="rId9"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>' +
  `<p:spPr><a:xfrm><a:off x="${LOGO_BOX.x}" y="${LOGO_BOX.y}"/><a:ext cx="${LOGO_BOX.cx}" cy="${LOGO_BOX.cy}"/></a:xfrm>` +
  '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>';

export async function masterLogoTemplate(): Promise<Uint8Array> {
  const image = await png(160, 80, LOGO_GREY);
  return editPackage(harbourTemplate('4:3'), (files) => {
    const edit = (name: string, change: (xml: string) => string): void => {
      const data = files[name];
      if (!data) throw new Error(`no ${name}`);
      files[name] = strToU8(change(strFromU8(data)));
    };
    files['ppt/media/logo.png'] = image;
    edit('[Content_Types].xml', (xml) =>
      xml.replace(
        '<Default Extension="xml"',
        '<Default Extension="png" ContentType="image/png"/><Default Extension="xml"',
      ),
    );
    for (const m of [1, 2]) {
      edit(`ppt/slideMasters/slideMaster${m}.xml`, (xml) =>
        xml.replace(
          '</p:spTree>',
          `${logo(10)}${textBox(11, 'Footer Text', FOOTER_BOX, '{{company}}')}</p:spTree>`,
        ),
      );
      edit(`ppt/slideMasters/_rels/slideMaster${m}.xml.rels`, (xml) =>
        xml.replace(
          '</Relationships>',
          '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="../media/logo.png"/></Relationships>',
        ),
      );
    }
    edit('ppt/slideLayouts/slideLayout2.xml', (xml) =>
      xml.replace('</p:spTree>', `${textBox(12, 'Layout Badge', BADGE_BOX, 'Harbour')}</p:spTree>`),
    );
  });
}
