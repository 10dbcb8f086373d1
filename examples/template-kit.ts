/**
 * The pieces the example templates are written from (make-*-template.ts): a slide master with its text styles,
 * layouts, a theme, and the package around them (content types, relationships, presentation part). Written by
 * hand from the schemas (ECMA-376 Part 1, §19 PresentationML and §20 DrawingML), not copied from any other deck,
 * so the project owns every byte of its examples.
 */
import { writeZip } from '../src/engine/package/zip-writer.js';

const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
export const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
export const NS = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';
export const SLIDE_WIDTH = 12192000;
export const SLIDE_HEIGHT = 6858000;

export type Relationship = [id: string, type: string, target: string];

export const rels = (items: Relationship[]): string =>
  `${PRE}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  items.map(([id, type, target]) => `<Relationship Id="${id}" Type="${type}" Target="${target}"/>`).join('') +
  '</Relationships>';

export const xfrm = (x: number, y: number, cx: number, cy: number): string =>
  `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>`;
const groupHeader =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>';

export function placeholder(
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

export function textBox(id: number, name: string, geometry: string, paragraph: string): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr>${geometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square" rtlCol="0"><a:spAutoFit/></a:bodyPr><a:lstStyle/>${paragraph}</p:txBody></p:sp>`
  );
}

export const para = (text: string, lvl = 0, rPr = '<a:rPr lang="en-US" dirty="0"/>'): string =>
  `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ''}<a:r>${rPr}<a:t>${text}</a:t></a:r></a:p>`;

/** A slide part; `background` is a fill (`<a:solidFill>…`) of its own instead of the master's. */
export const slide = (shapes: string, background?: string): string =>
  `${PRE}<p:sld ${NS}><p:cSld>${background ? `<p:bg><p:bgPr>${background}<a:effectLst/></p:bgPr></p:bg>` : ''}` +
  `<p:spTree>${groupHeader}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;

/** A picture showing the image of relationship `rId`. */
export const picture = (id: number, name: string, rId: string, geometry: string, description = ''): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"${description ? ` descr="${description}"` : ''}/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
  `<p:blipFill><a:blip r:embed="${rId}"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
  `<p:spPr>${geometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;

const titleGeometry = xfrm(838200, 365125, 10515600, 1325563);
const bodyGeometry = xfrm(838200, 1825625, 10515600, 4351338);

function master(layoutCount: number): string {
  const layoutIds = Array.from(
    { length: layoutCount },
    (_, i) => `<p:sldLayoutId id="${2147483649 + i}" r:id="rId${i + 1}"/>`,
  ).join('');
  return (
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
    `<p:sldLayoutIdLst>${layoutIds}</p:sldLayoutIdLst>` +
    '<p:txStyles>' +
    '<p:titleStyle><a:lvl1pPr algn="l"><a:defRPr sz="4400" b="1"><a:solidFill><a:schemeClr val="accent1"/></a:solidFill><a:latin typeface="+mj-lt"/></a:defRPr></a:lvl1pPr></p:titleStyle>' +
    '<p:bodyStyle>' +
    '<a:lvl1pPr marL="228600" indent="-228600"><a:spcBef><a:spcPts val="1000"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/><a:defRPr sz="2800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr>' +
    '<a:lvl2pPr marL="685800" indent="-228600"><a:spcBef><a:spcPts val="500"/></a:spcBef><a:buFont typeface="Arial"/><a:buChar char="&#8211;"/><a:defRPr sz="2400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl2pPr>' +
    '</p:bodyStyle><p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:otherStyle>' +
    '</p:txStyles></p:sldMaster>'
  );
}

export interface Layout {
  name: string;
  type: string;
  shapes: string;
}

const layoutXml = ({ name, type, shapes }: Layout): string =>
  `${PRE}<p:sldLayout ${NS} type="${type}" preserve="1"><p:cSld name="${name}"><p:spTree>${groupHeader}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;

export const TITLE_LAYOUT: Layout = {
  name: 'Title Slide',
  type: 'title',
  shapes:
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
};

export const CONTENT_LAYOUT: Layout = {
  name: 'Title and Content',
  type: 'obj',
  shapes:
    placeholder(2, 'Title 1', '<p:ph type="title"/>', '', [para('Click to edit title')]) +
    placeholder(3, 'Content Placeholder 2', '<p:ph idx="1"/>', '', [para('Click to edit text')]),
};

export interface ColourScheme {
  name: string;
  dk1: string;
  dk2: string;
  lt2: string;
  /** accent1 … accent6 */
  accents: [string, string, string, string, string, string];
  fonts: { major: string; minor: string };
}

export const DECKFORGE_COLOURS: ColourScheme = {
  name: 'Deckforge',
  dk1: '1F2933',
  dk2: '323F4B',
  lt2: 'E4E7EB',
  accents: ['2F6FDE', 'F29D38', '3EBD93', 'D64545', '8E6CEF', '48B3CF'],
  fonts: { major: 'Calibri Light', minor: 'Calibri' },
};

const colour = (name: string, hex: string): string => `<a:${name}><a:srgbClr val="${hex}"/></a:${name}>`;

function theme(themeName: string, scheme: ColourScheme): string {
  const n = scheme.name;
  return (
    `${PRE}<a:theme xmlns:a="${NS_A}" name="${themeName}"><a:themeElements>` +
    `<a:clrScheme name="${n}">` +
    `<a:dk1><a:srgbClr val="${scheme.dk1}"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1>` +
    colour('dk2', scheme.dk2) +
    colour('lt2', scheme.lt2) +
    scheme.accents.map((hex, i) => colour(`accent${i + 1}`, hex)).join('') +
    colour('hlink', scheme.accents[0]) +
    colour('folHlink', scheme.accents[4]) +
    '</a:clrScheme>' +
    `<a:fontScheme name="${n}"><a:majorFont><a:latin typeface="${scheme.fonts.major}"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>` +
    `<a:minorFont><a:latin typeface="${scheme.fonts.minor}"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>` +
    `<a:fmtScheme name="${n}"><a:fillStyleLst>` +
    '<a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:tint val="50000"/></a:schemeClr></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="80000"/></a:schemeClr></a:solidFill>' +
    '</a:fillStyleLst><a:lnStyleLst>' +
    '<a:ln w="6350"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="12700"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="19050"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>' +
    '</a:lnStyleLst><a:effectStyleLst><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle></a:effectStyleLst>' +
    '<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:tint val="95000"/></a:schemeClr></a:solidFill><a:solidFill><a:schemeClr val="phClr"><a:shade val="90000"/></a:schemeClr></a:solidFill></a:bgFillStyleLst>' +
    '</a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>'
  );
}

export interface SlideSpec {
  xml: string;
  /** 1-based, into DeckSpec.layouts */
  layout: number;
  /** Relationships beyond the layout's (rId1), e.g. a picture or a chart. */
  rels?: Relationship[];
}

/** A further part: a picture, a chart, an embedded workbook. `contentType` adds an Override for it. */
export interface ExtraPart {
  name: string;
  data: Uint8Array | string;
  contentType?: string;
}

export interface DeckSpec {
  themeName: string;
  colours: ColourScheme;
  layouts: Layout[];
  slides: SlideSpec[];
  parts?: ExtraPart[];
  /** Default content types by extension (png, jpeg, xlsx). */
  defaults?: Record<string, string>;
}

/** The whole package of a deck, zipped. */
export function writeDeck(spec: DeckSpec): Uint8Array {
  const { slides, layouts } = spec;
  const extra = spec.parts ?? [];
  const presentation =
    `${PRE}<p:presentation ${NS} saveSubsetFonts="1">` +
    '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
    `<p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>` +
    `<p:sldSz cx="${SLIDE_WIDTH}" cy="${SLIDE_HEIGHT}"/><p:notesSz cx="6858000" cy="9144000"/>` +
    '<p:defaultTextStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:defaultTextStyle>' +
    '</p:presentation>';

  const app =
    `${PRE}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
    `<Application>Deckforge</Application><Slides>${slides.length}</Slides><Notes>0</Notes><HiddenSlides>0</HiddenSlides><AppVersion>16.0000</AppVersion></Properties>`;

  const contentTypes =
    `${PRE}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` +
    Object.entries(spec.defaults ?? {})
      .map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`)
      .join('') +
    `<Override PartName="/ppt/presentation.xml" ContentType="${CT}.presentationml.presentation.main+xml"/>` +
    `<Override PartName="/ppt/slideMasters/slideMaster1.xml" ContentType="${CT}.presentationml.slideMaster+xml"/>` +
    layouts
      .map(
        (_, i) =>
          `<Override PartName="/ppt/slideLayouts/slideLayout${i + 1}.xml" ContentType="${CT}.presentationml.slideLayout+xml"/>`,
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
    extra
      .filter((part) => part.contentType)
      .map((part) => `<Override PartName="/${part.name}" ContentType="${part.contentType}"/>`)
      .join('') +
    '</Types>';

  const layoutRels = rels([['rId1', `${REL}/slideMaster`, '../slideMasters/slideMaster1.xml']]);
  const files: [string, string | Uint8Array][] = [
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
        ...slides.map((_, i): Relationship => [`rId${10 + i}`, `${REL}/slide`, `slides/slide${i + 1}.xml`]),
      ]),
    ],
    ['ppt/slideMasters/slideMaster1.xml', master(layouts.length)],
    [
      'ppt/slideMasters/_rels/slideMaster1.xml.rels',
      rels([
        ...layouts.map((_, i): Relationship => [
          `rId${i + 1}`,
          `${REL}/slideLayout`,
          `../slideLayouts/slideLayout${i + 1}.xml`,
        ]),
        [`rId${layouts.length + 1}`, `${REL}/theme`, '../theme/theme1.xml'],
      ]),
    ],
    ...layouts.flatMap((layout, i): [string, string][] => [
      [`ppt/slideLayouts/slideLayout${i + 1}.xml`, layoutXml(layout)],
      [`ppt/slideLayouts/_rels/slideLayout${i + 1}.xml.rels`, layoutRels],
    ]),
    ['ppt/theme/theme1.xml', theme(spec.themeName, spec.colours)],
    ...slides.flatMap((s, i): [string, string][] => [
      [`ppt/slides/slide${i + 1}.xml`, s.xml],
      [
        `ppt/slides/_rels/slide${i + 1}.xml.rels`,
        rels([
          ['rId1', `${REL}/slideLayout`, `../slideLayouts/slideLayout${s.layout}.xml`],
          ...(s.rels ?? []),
        ]),
      ],
    ]),
    ...extra.map((part): [string, string | Uint8Array] => [part.name, part.data]),
  ];

  const encoder = new TextEncoder();
  return writeZip(
    files.map(([name, data]) => ({
      name,
      data: typeof data === 'string' ? encoder.encode(data) : data,
      // Pictures and workbooks are compressed already.
      compress: typeof data === 'string' || name.endsWith('.rels') || name.endsWith('.xml'),
    })),
  );
}
