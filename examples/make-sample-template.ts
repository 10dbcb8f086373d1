/**
 * Writes examples/sample-template.pptx, the template the README's first example uses. Written by hand from
 * the schemas (not copied from any other deck) so that the project ships a template it owns:
 *   npx tsx examples/make-sample-template.ts
 *
 * Slides: 0 "Title Slide" (Title, Subtitle with a {{company}} tag), 1 "Title and Content" (Title, Body
 * with two bullet levels, a "Footnote" text box), 2 "Closing" (a text box in a group).
 */
import { writeFileSync } from 'node:fs';
import { writeZip } from '../src/engine/package/zip-writer.js';

const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const NS = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
const W = 12192000;
const H = 6858000;

const rels = (items: [string, string, string][]): string =>
  `${PRE}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('') +
  '</Relationships>';

const xfrm = (x: number, y: number, cx: number, cy: number): string =>
  `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>`;
const groupHeader =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';

function placeholder(
  id: number,
  name: string,
  ph: string,
  geometry: string,
  paragraphs: string[] = [],
  lstStyle = '<a:lstStyle/>',
): string {
  const body = paragraphs.length ? paragraphs.join('') : '<a:p><a:endParaRPr lang="en-US"/></a:p>';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr>${ph}</p:nvPr></p:nvSpPr>` +
    `<p:spPr>${geometry}</p:spPr><p:txBody><a:bodyPr/>${lstStyle}${body}</p:txBody></p:sp>`
  );
}

function textBox(id: number, name: string, geometry: string, paragraph: string): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr>${geometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square" rtlCol="0"><a:spAutoFit/></a:bodyPr><a:lstStyle/>${paragraph}</p:txBody></p:sp>`
  );
}

const para = (text: string, lvl = 0, rPr = '<a:rPr lang="en-US" dirty="0"/>'): string =>
  `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ''}<a:r>${rPr}<a:t>${text}</a:t></a:r></a:p>`;

const slide = (shapes: string): string =>
  `${PRE}<p:sld ${NS}><p:cSld><p:spTree>${groupHeader}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;

const titleGeometry = xfrm(838200, 365125, 10515600, 1325563);
const bodyGeometry = xfrm(838200, 1825625, 10515600, 4351338);

const master =
  `${PRE}<p:sldMaster ${NS}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${groupHeader}` +
  placeholder(
    2,
    'Title Placeholder 1',
    '<p:ph type="title"/>',
    `${titleGeometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
    [para('Click to edit title')],
  ) +
  placeholder(
    3,
    'Text Placeholder 2',
    '<p:ph type="body" idx="1"/>',
    `${bodyGeometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
    [para('Click to edit text')],
  ) +
  '</p:spTree></p:cSld>' +
  '<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>' +
  '<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/><p:sldLayoutId id="2147483650" r:id="rId2"/></p:sldLayoutIdLst>' +
  '<p:txStyles>' +
  '<p:titleStyle><a:lvl1pPr algn="l"><a:defRPr sz="4400" b="1"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:latin typeface="+mj-lt"/></a:defRPr></a:lvl1pPr></p:titleStyle>' +
  '<p:bodyStyle>' +
  '<a:lvl1pPr marL="228600" indent="-228600"><a:spcBef><a:spcPts val="1000"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/><a:defRPr sz="2800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr>' +
  '<a:lvl2pPr marL="685800" indent="-228600"><a:spcBef><a:spcPts val="500"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="&#8211;"/><a:defRPr sz="2400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl2pPr>' +
  '</p:bodyStyle><p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:otherStyle>' +
  '</p:txStyles></p:sldMaster>';

const layout = (name: string, type: string, shapes: string): string =>
  `${PRE}<p:sldLayout ${NS} type="${type}" preserve="1"><p:cSld name="${name}"><p:spTree>${groupHeader}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;

const titleLayout = layout(
  'Title Slide',
  'title',
  placeholder(
    2,
    'Title 1',
    '<p:ph type="ctrTitle"/>',
    xfrm(1524000, 1122363, 9144000, 2387600),
    [para('Click to edit title')],
    '<a:lstStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="5400"/></a:lvl1pPr></a:lstStyle>',
  ) +
    placeholder(
      3,
      'Subtitle 2',
      '<p:ph type="subTitle" idx="1"/>',
      xfrm(1524000, 3602038, 9144000, 1655762),
      [para('Click to edit subtitle')],
      '<a:lstStyle><a:lvl1pPr marL="0" indent="0" algn="ctr"><a:buNone/><a:defRPr sz="2400"/></a:lvl1pPr></a:lstStyle>',
    ),
);
const contentLayout = layout(
  'Title and Content',
  'obj',
  placeholder(2, 'Title 1', '<p:ph type="title"/>', '', [para('Click to edit title')]) +
    placeholder(3, 'Content Placeholder 2', '<p:ph idx="1"/>', '', [para('Click to edit text')]),
);

const colour = (name: string, hex: string): string => `<a:${name}><a:srgbClr val="${hex}"/></a:${name}>`;
const theme =
  `${PRE}<a:theme xmlns:a="${NS_A}" name="Deckforge Sample"><a:themeElements>` +
  '<a:clrScheme name="Deckforge">' +
  '<a:dk1><a:srgbClr val="1F2933"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1>' +
  colour('dk2', '323F4B') +
  colour('lt2', 'E4E7EB') +
  colour('accent1', '2F6FDE') +
  colour('accent2', 'F29D38') +
  colour('accent3', '3EBD93') +
  colour('accent4', 'D64545') +
  colour('accent5', '8E6CEF') +
  colour('accent6', '48B3CF') +
  colour('hlink', '2F6FDE') +
  colour('folHlink', '8E6CEF') +
  '</a:clrScheme>' +
  '<a:fontScheme name="Deckforge"><a:majorFont><a:latin typeface="Calibri Light"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>' +
  '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
  '<a:fmtScheme name="Deckforge"><a:fillStyleLst>' +
  '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:tint val="50000"/></a:schemeClr></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="80000"/></a:schemeClr></a:solidFill>' +
  '</a:fillStyleLst><a:lnStyleLst>' +
  '<a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>' +
  '</a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
  '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:tint val="95000"/></a:schemeClr></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="90000"/></a:schemeClr></a:solidFill></a:bgFillStyleLst>' +
  '</a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>';

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

const presentation =
  `${PRE}<p:presentation ${NS} saveSubsetFonts="1">` +
  '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
  `<p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>` +
  `<p:sldSz cx="${W}" cy="${H}"/><p:notesSz cx="6858000" cy="9144000"/>` +
  '<p:defaultTextStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:defaultTextStyle>' +
  '</p:presentation>';

const app =
  `${PRE}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
  `<Application>Deckforge</Application><Slides>${slides.length}</Slides><Notes>0</Notes><HiddenSlides>0</HiddenSlides><AppVersion>16.0000</AppVersion></Properties>`;

const contentTypes =
  `${PRE}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="/ppt/presentation.xml" ContentType="${CT}.presentationml.presentation.main+xml"/>` +
  `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${CT}.presentationml.slideMaster+xml"/>` +
  [1, 2]
    .map(
      (n) =>
        `<Override PartName="/ppt/slideLayouts/slideLayout${n}.xml" ContentType="${CT}.presentationml.slideLayout+xml"/>`,
    )
    .join('') +
  slides
    .map(
      (_, i) =>
        `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="${CT}.presentationml.slide+xml"/>`,
    )
    .join('') +
  `<Override PartName="/ppt/theme/theme1.xml" ContentType="${CT}.theme+xml"/>` +
  `<Override PartName="/docProps/app.xml" ContentType="${CT}.extended-properties+xml"/>` +
  '</Types>';

const layoutRels = rels([['rId1', `${REL}/slideMaster`, '../slideMasters/slideMaster1.xml']]);
const files: [string, string][] = [
  ['[Content_Types].xml', contentTypes],
  [
    '_rels/.rels',
    rels([
      ['rId1', `${REL}/officeDocument`, 'ppt/presentation.xml'],
      ['rId2', `${REL}/extended-properties`, 'docProps/app.xml'],
    ]),
  ],
  ['docProps/app.xml', app],
  ['ppt/presentation.xml', presentation],
  [
    'ppt/_rels/presentation.xml.rels',
    rels([
      ['rId1', `${REL}/slideMaster`, 'slideMasters/slideMaster1.xml'],
      ['rId2', `${REL}/theme`, 'theme/theme1.xml'],
      ...slides.map((_, i): [string, string, string] => [
        `rId${10 + i}`,
        `${REL}/slide`,
        `slides/slide${i + 1}.xml`,
      ]),
    ]),
  ],
  ['ppt/slideMasters/slideMaster1.xml', master],
  [
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    rels([
      ['rId1', `${REL}/slideLayout`, '../slideLayouts/slideLayout1.xml'],
      ['rId2', `${REL}/slideLayout`, '../slideLayouts/slideLayout2.xml'],
      ['rId3', `${REL}/theme`, '../theme/theme1.xml'],
    ]),
  ],
  ['ppt/slideLayouts/slideLayout1.xml', titleLayout],
  ['ppt/slideLayouts/_rels/slideLayout1.xml.rels', layoutRels],
  ['ppt/slideLayouts/slideLayout2.xml', contentLayout],
  ['ppt/slideLayouts/_rels/slideLayout2.xml.rels', layoutRels],
  ['ppt/theme/theme1.xml', theme],
  ...slides.flatMap((xml, i): [string, string][] => [
    [`ppt/slides/slide${i + 1}.xml`, xml],
    [
      `ppt/slides/_rels/slide${i + 1}.xml.rels`,
      rels([['rId1', `${REL}/slideLayout`, `../slideLayouts/slideLayout${i === 0 ? 1 : 2}.xml`]]),
    ],
  ]),
];

const encoder = new TextEncoder();
const bytes = writeZip(files.map(([name, xml]) => ({ name, data: encoder.encode(xml), compress: true })));
const target = new URL('./sample-template.pptx', import.meta.url);
writeFileSync(target, bytes);
console.log(`wrote ${target.pathname} (${bytes.length} bytes)`);
