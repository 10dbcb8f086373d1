/**
 * "Harbour", a second owned look for the multi-template scenarios (test/engine/multi-template.test.ts), written
 * from the schemas like layouts-template.ts but with nothing of its look: two slide masters, each with its own
 * theme ("Harbour Orange": orange accents on a sand background; "Harbour Blue": blue accents on a pale blue one;
 * both Cambria headings over Arial text), three layouts per master ("Title Slide", "Title and Content",
 * "Title Only", so `type: layout` index 4 is the blue master's "Title and Content"), a table style list naming
 * no style, no notes master. In 4:3 (9 144 000 × 6 858 000 EMU, the layouts template's size) or 16:9
 * (12 192 000 × 6 858 000). Its slides, each with "Headline" (title) and, but for slide 0, "Text" (body):
 *   0 orange "Title Slide" ("Harbour", subtitle "Text")   1 orange "Title and Content"   2 blue "Title and Content"
 */
import { strToU8, zipSync } from 'fflate';

const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS = `xmlns:a="${NS_A}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`;
const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
/** The built-in "Medium Style 2 - Accent 1", PowerPoint's default table style. */
const DEFAULT_TABLE_STYLE = '{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}';

type Rel = [id: string, type: string, target: string];
const rels = (items: Rel[]): string =>
  `${PRE}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('') +
  '</Relationships>';
const HEADER =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/>' +
  '<a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

interface Look {
  theme: string;
  accent: string;
  background: string;
}
const LOOKS: Look[] = [
  { theme: 'Harbour Orange', accent: 'E36C0A', background: 'FBEBD9' },
  { theme: 'Harbour Blue', accent: '1F5FAD', background: 'DCE8F6' },
];

export type HarbourSize = '4:3' | '16:9';

function build(size: HarbourSize): Uint8Array {
  const W = size === '4:3' ? 9144000 : 12192000;
  const H = 6858000;
  const margin = Math.round(W / 20);
  const xfrm = (y: number, cy: number): string =>
    `<a:xfrm><a:off x="${margin}" y="${y}"/><a:ext cx="${W - 2 * margin}" cy="${cy}"/></a:xfrm>`;
  const TITLE = xfrm(300000, 1100000);
  const BODY = xfrm(1600000, 4500000);
  const sp = (id: number, name: string, ph: string, geometry: string, text: string): string =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph ${ph}/></p:nvPr></p:nvSpPr>` +
    `<p:spPr>${geometry}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/>` +
    (text
      ? `<a:p><a:r><a:rPr lang="en-GB" dirty="0"/><a:t>${text}</a:t></a:r></a:p>`
      : '<a:p><a:endParaRPr lang="en-GB"/></a:p>') +
    '</p:txBody></p:sp>';
  const rect = '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>';

  const master = (look: Look, first: number): string =>
    `${PRE}<p:sldMaster ${NS}><p:cSld><p:bg><p:bgPr><a:solidFill><a:srgbClr val="${look.background}"/></a:solidFill><a:effectLst/></p:bgPr></p:bg>` +
    `<p:spTree>${HEADER}${sp(2, 'Title Placeholder 1', 'type="title"', TITLE + rect, 'Harbour title')}` +
    `${sp(3, 'Text Placeholder 2', 'type="body" idx="1"', BODY + rect, 'Harbour text')}</p:spTree></p:cSld>` +
    '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
    `<p:sldLayoutIdLst>${[0, 1, 2].map((i) => `<p:sldLayoutId id="${2147483649 + first + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldLayoutIdLst>` +
    '<p:txStyles><p:titleStyle><a:lvl1pPr algn="l"><a:defRPr sz="4000" b="1"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:latin typeface="+mj-lt"/></a:defRPr></a:lvl1pPr></p:titleStyle>' +
    '<p:bodyStyle><a:lvl1pPr marL="285750" indent="-285750"><a:buFont typeface="Arial"/><a:buChar char="&#8250;"/><a:defRPr sz="2400"><a:solidFill><a:schemeClr val="tx2"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:bodyStyle>' +
    '<p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:otherStyle></p:txStyles></p:sldMaster>';

  const LAYOUTS: [string, string, string][] = [
    [
      'Title Slide',
      'title',
      sp(2, 'Title 1', 'type="ctrTitle"', xfrm(2000000, 1400000), 'Harbour title') +
        sp(3, 'Subtitle 2', 'type="subTitle" idx="1"', xfrm(3600000, 1000000), 'Harbour subtitle'),
    ],
    [
      'Title and Content',
      'obj',
      sp(2, 'Title 1', 'type="title"', '', 'Harbour title') +
        sp(3, 'Content Placeholder 2', 'idx="1"', '', 'Harbour text'),
    ],
    ['Title Only', 'titleOnly', sp(2, 'Title 1', 'type="title"', '', 'Harbour title')],
  ];
  const layout = ([name, type, shapes]: [string, string, string]): string =>
    `${PRE}<p:sldLayout ${NS} type="${type}" preserve="1"><p:cSld name="${name}"><p:spTree>${HEADER}${shapes}</p:spTree></p:cSld>` +
    '<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>';

  const colour = (name: string, hex: string): string => `<a:${name}><a:srgbClr val="${hex}"/></a:${name}>`;
  const theme = (look: Look): string =>
    `${PRE}<a:theme xmlns:a="${NS_A}" name="${look.theme}"><a:themeElements><a:clrScheme name="${look.theme}">` +
    colour('dk1', '1B1B1B') +
    colour('lt1', 'FFFFFF') +
    colour('dk2', '2E3A46') +
    colour('lt2', 'F2F2F2') +
    colour('accent1', look.accent) +
    ['7F7F7F', '4E8542', 'B8860B', '8B3A62', '2F4F4F']
      .map((hex, i) => colour(`accent${i + 2}`, hex))
      .join('') +
    colour('hlink', look.accent) +
    colour('folHlink', '6B4E71') +
    `</a:clrScheme><a:fontScheme name="Harbour"><a:majorFont><a:latin typeface="Cambria"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>` +
    '<a:minorFont><a:latin typeface="Arial"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
    '<a:fmtScheme name="Harbour"><a:fillStyleLst>' +
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'.repeat(3) +
    '</a:fillStyleLst><a:lnStyleLst>' +
    [6350, 12700, 19050]
      .map((w) => `<a:ln w="${w}"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>`)
      .join('') +
    '</a:lnStyleLst><a:effectStyleLst>' +
    '<a:effectStyle><a:effectLst/></a:effectStyle>'.repeat(3) +
    '</a:effectStyleLst><a:bgFillStyleLst>' +
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>'.repeat(3) +
    '</a:bgFillStyleLst></a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>';

  // [master (0 orange, 1 blue), layout within it, shapes]
  const SLIDES: [number, number, string][] = [
    [
      0,
      0,
      sp(2, 'Headline', 'type="ctrTitle"', '', 'Harbour') +
        sp(3, 'Text', 'type="subTitle" idx="1"', '', 'A second look'),
    ],
    [
      0,
      1,
      sp(2, 'Headline', 'type="title"', '', 'Orange slide') +
        sp(3, 'Text', 'idx="1"', '', 'On the orange master'),
    ],
    [
      1,
      1,
      sp(2, 'Headline', 'type="title"', '', 'Blue slide') +
        sp(3, 'Text', 'idx="1"', '', 'On the blue master'),
    ],
  ];

  const files: Record<string, Uint8Array> = {};
  const put = (name: string, xml: string): void => void (files[name] = strToU8(xml));
  const override = (part: string, type: string): string =>
    `<Override PartName="/${part}" ContentType="${CT}.${type}"/>`;
  const layoutName = (m: number, l: number): string => `slideLayout${m * 3 + l + 1}.xml`;
  put(
    '[Content_Types].xml',
    `${PRE}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      override('ppt/presentation.xml', 'presentationml.presentation.main+xml') +
      override('ppt/tableStyles.xml', 'presentationml.tableStyles+xml') +
      LOOKS.map(
        (_, m) =>
          override(`ppt/slideMasters/slideMaster${m + 1}.xml`, 'presentationml.slideMaster+xml') +
          override(`ppt/theme/theme${m + 1}.xml`, 'theme+xml'),
      ).join('') +
      [0, 1, 2, 3, 4, 5]
        .map((i) => override(`ppt/slideLayouts/slideLayout${i + 1}.xml`, 'presentationml.slideLayout+xml'))
        .join('') +
      SLIDES.map((_, i) => override(`ppt/slides/slide${i + 1}.xml`, 'presentationml.slide+xml')).join('') +
      '</Types>',
  );
  put('_rels/.rels', rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]));
  put(
    'ppt/presentation.xml',
    `${PRE}<p:presentation ${NS} saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/><p:sldMasterId id="2147483652" r:id="rId2"/></p:sldMasterIdLst>` +
      `<p:sldIdLst>${SLIDES.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>` +
      `<p:sldSz cx="${W}" cy="${H}"${size === '4:3' ? ' type="screen4x3"' : ''}/><p:notesSz cx="6858000" cy="9144000"/>` +
      '<p:defaultTextStyle><a:lvl1pPr><a:defRPr sz="1800"><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:defaultTextStyle></p:presentation>',
  );
  put(
    'ppt/_rels/presentation.xml.rels',
    rels([
      ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
      ['rId2', 'slideMaster', 'slideMasters/slideMaster2.xml'],
      ['rId3', 'theme', 'theme/theme1.xml'],
      ['rId4', 'tableStyles', 'tableStyles.xml'],
      ...SLIDES.map((_, i): Rel => [`rId${10 + i}`, 'slide', `slides/slide${i + 1}.xml`]),
    ]),
  );
  put('ppt/tableStyles.xml', `${PRE}<a:tblStyleLst xmlns:a="${NS_A}" def="${DEFAULT_TABLE_STYLE}"/>`);
  LOOKS.forEach((look, m) => {
    put(`ppt/slideMasters/slideMaster${m + 1}.xml`, master(look, m * 4));
    put(
      `ppt/slideMasters/_rels/slideMaster${m + 1}.xml.rels`,
      rels([
        ...[0, 1, 2].map((l): Rel => [`rId${l + 1}`, 'slideLayout', `../slideLayouts/${layoutName(m, l)}`]),
        ['rId4', 'theme', `../theme/theme${m + 1}.xml`],
      ]),
    );
    put(`ppt/theme/theme${m + 1}.xml`, theme(look));
    LAYOUTS.forEach((item, l) => {
      put(`ppt/slideLayouts/${layoutName(m, l)}`, layout(item));
      put(
        `ppt/slideLayouts/_rels/${layoutName(m, l)}.rels`,
        rels([['rId1', 'slideMaster', `../slideMasters/slideMaster${m + 1}.xml`]]),
      );
    });
  });
  SLIDES.forEach(([m, l, shapes], i) => {
    put(
      `ppt/slides/slide${i + 1}.xml`,
      `${PRE}<p:sld ${NS}><p:cSld><p:spTree>${HEADER}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`,
    );
    put(
      `ppt/slides/_rels/slide${i + 1}.xml.rels`,
      rels([['rId1', 'slideLayout', `../slideLayouts/${layoutName(m, l)}`]]),
    );
  });
  // A fixed date keeps the bytes the same on every run.
  return zipSync(files, { mtime: new Date('2020-01-01T00:00:00Z') });
}

const built = new Map<HarbourSize, Uint8Array>();

/** The Harbour template's bytes in `size` (a fresh copy each call). */
export function harbourTemplate(size: HarbourSize = '4:3'): Uint8Array {
  let bytes = built.get(size);
  if (!bytes) built.set(size, (bytes = build(size)));
  return bytes.slice();
}
