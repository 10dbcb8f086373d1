/**
 * layouts.pptx, the template the service, HTTP, worker and CLI tests fill: written here from the schemas, so
 * the suite needs no deck from elsewhere (no corpus file enters the repository).
 *
 * One master (title, body, date, footer and slide-number placeholders) with the eleven layouts PowerPoint's
 * default theme has, under their usual names, and ten slides, one per layout but "Title and Vertical Text":
 *   0 "Title 1" (ctrTitle), "Subtitle 2"            5 "Title 1" only
 *   1 "Title 1", "Content Placeholder 2" (levels)   6 "Title 1", "TextBox 3", group "Group 6" of "TextBox 4"
 *   2 "Title 1", "Text Placeholder 2"                7 "Title 1", "Content Placeholder 2", "Text Placeholder 3"
 *   3 "Title 1", two content placeholders           8 "Title 1", empty "Picture Placeholder 4", "Text Placeholder 3"
 *   4 "Title 1", two headings, two contents         9 "Title 4", body, date, footer, slide number, pictures
 *                                                     "Picture 10" (144×144 px) and "Picture 11" (192×96 px)
 *                                                     of one PNG, and a notes page
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { editPart } from './package-edit.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const NS = `xmlns:a="${NS_A}" xmlns:r="${NS_R}" xmlns:p="${NS_P}"`;
const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument';

type Rel = [id: string, type: string, target: string];
const rels = (items: Rel[]): string =>
  `${PRE}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  items
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
    .join('') +
  '</Relationships>';

const xfrm = (x: number, y: number, cx: number, cy: number): string =>
  `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>`;
const TREE_HEADER =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/>' +
  '<a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** Paragraphs from lines; a line's leading spaces (two per level) set its level. */
const paragraphs = (lines: string[]): string =>
  lines
    .map((line) => {
      const lvl = (line.length - line.trimStart().length) / 2;
      return `<a:p>${lvl ? `<a:pPr lvl="${lvl}"/>` : ''}<a:r><a:rPr lang="en-US" dirty="0"/><a:t>${escape(line.trim())}</a:t></a:r></a:p>`;
    })
    .join('');

/** A placeholder; `ph` is the `p:ph` element's attributes, `geometry` empty to inherit the position. */
function placeholder(id: number, name: string, ph: string, lines: string[], geometry = ''): string {
  const body = lines.length ? paragraphs(lines) : '<a:p><a:endParaRPr lang="en-US"/></a:p>';
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>` +
    `<p:nvPr><p:ph ${ph}/></p:nvPr></p:nvSpPr><p:spPr>${geometry}</p:spPr>` +
    `<p:txBody><a:bodyPr/><a:lstStyle/>${body}</p:txBody></p:sp>`
  );
}

function textBox(id: number, name: string, geometry: string, lines: string[]): string {
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr>${geometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="square" rtlCol="0"><a:spAutoFit/></a:bodyPr><a:lstStyle/>${paragraphs(lines)}</p:txBody></p:sp>`
  );
}

const W = 9144000;
const H = 6858000;
const TITLE = xfrm(457200, 274638, 8229600, 1143000);
const BODY = xfrm(457200, 1600200, 8229600, 4525963);
const LEFT = xfrm(457200, 1600200, 4038600, 4525963);
const RIGHT = xfrm(4648200, 1600200, 4038600, 4525963);
const DATE = xfrm(457200, 6356350, 2133600, 365125);
const FOOTER = xfrm(3124200, 6356350, 2895600, 365125);
const NUMBER = xfrm(6553200, 6356350, 2133600, 365125);
const PICTURE = xfrm(1792288, 612775, 5486400, 4114800);
const CAPTION = xfrm(1792288, 4800600, 5486400, 804862);

const footers = (from: number): string =>
  placeholder(from, `Date Placeholder ${from - 1}`, 'type="dt" sz="half" idx="10"', []) +
  placeholder(from + 1, `Footer Placeholder ${from}`, 'type="ftr" sz="quarter" idx="11"', []) +
  placeholder(from + 2, `Slide Number Placeholder ${from + 1}`, 'type="sldNum" sz="quarter" idx="12"', []);

/** The eleven layouts: name, `type`, and their own placeholders (each also has the three footers). */
const LAYOUTS: [string, string, string][] = [
  [
    'Title Slide',
    'title',
    placeholder(
      2,
      'Title 1',
      'type="ctrTitle"',
      ['Click to edit Master title style'],
      xfrm(685800, 2130425, 7772400, 1470025),
    ) +
      placeholder(
        3,
        'Subtitle 2',
        'type="subTitle" idx="1"',
        ['Click to edit Master subtitle style'],
        xfrm(1371600, 3886200, 6400800, 1752600),
      ),
  ],
  [
    'Title and Content',
    'obj',
    placeholder(2, 'Title 1', 'type="title"', ['Click to edit Master title style']) +
      placeholder(3, 'Content Placeholder 2', 'idx="1"', [
        'Click to edit Master text styles',
        '  Second level',
      ]),
  ],
  [
    'Section Header',
    'secHead',
    placeholder(
      2,
      'Title 1',
      'type="title"',
      ['Click to edit Master title style'],
      xfrm(722313, 4406900, 7772400, 1362075),
    ) +
      placeholder(
        3,
        'Text Placeholder 2',
        'type="body" idx="1"',
        ['Click to edit Master text styles'],
        xfrm(722313, 2906713, 7772400, 1500187),
      ),
  ],
  [
    'Two Content',
    'twoObj',
    placeholder(2, 'Title 1', 'type="title"', ['Click to edit Master title style']) +
      placeholder(
        3,
        'Content Placeholder 2',
        'sz="half" idx="1"',
        ['Click to edit Master text styles'],
        LEFT,
      ) +
      placeholder(
        4,
        'Content Placeholder 3',
        'sz="half" idx="2"',
        ['Click to edit Master text styles'],
        RIGHT,
      ),
  ],
  [
    'Comparison',
    'twoTxTwoObj',
    placeholder(2, 'Title 1', 'type="title"', ['Click to edit Master title style']) +
      placeholder(
        3,
        'Text Placeholder 2',
        'type="body" idx="1"',
        ['Click to edit Master text styles'],
        xfrm(457200, 1535113, 4040188, 639762),
      ) +
      placeholder(
        4,
        'Content Placeholder 3',
        'sz="half" idx="2"',
        ['Click to edit Master text styles'],
        xfrm(457200, 2174875, 4040188, 3951288),
      ) +
      placeholder(
        5,
        'Text Placeholder 4',
        'type="body" sz="quarter" idx="3"',
        ['Click to edit Master text styles'],
        xfrm(4645025, 1535113, 4041775, 639762),
      ) +
      placeholder(
        6,
        'Content Placeholder 5',
        'sz="quarter" idx="4"',
        ['Click to edit Master text styles'],
        xfrm(4645025, 2174875, 4041775, 3951288),
      ),
  ],
  [
    'Title Only',
    'titleOnly',
    placeholder(2, 'Title 1', 'type="title"', ['Click to edit Master title style']),
  ],
  ['Blank', 'blank', ''],
  [
    'Content with Caption',
    'objTx',
    placeholder(
      2,
      'Title 1',
      'type="title"',
      ['Click to edit Master title style'],
      xfrm(457200, 273050, 3008313, 1162050),
    ) +
      placeholder(
        3,
        'Content Placeholder 2',
        'idx="1"',
        ['Click to edit Master text styles'],
        xfrm(3575050, 273050, 5111750, 5853113),
      ) +
      placeholder(
        4,
        'Text Placeholder 3',
        'type="body" sz="half" idx="2"',
        ['Click to edit Master text styles'],
        xfrm(457200, 1435100, 3008313, 4691063),
      ),
  ],
  [
    'Picture with Caption',
    'picTx',
    placeholder(
      2,
      'Title 1',
      'type="title"',
      ['Click to edit Master title style'],
      xfrm(1792288, 4800600, 5486400, 566738),
    ) +
      `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Picture Placeholder 2"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="pic" idx="1"/></p:nvPr></p:nvSpPr>` +
      `<p:spPr>${PICTURE}</p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:endParaRPr lang="en-US"/></a:p></p:txBody></p:sp>` +
      placeholder(
        4,
        'Text Placeholder 3',
        'type="body" sz="half" idx="2"',
        ['Click to edit Master text styles'],
        CAPTION,
      ),
  ],
  [
    'Title and Vertical Text',
    'vertTx',
    placeholder(2, 'Title 1', 'type="title"', ['Click to edit Master title style']) +
      placeholder(3, 'Vertical Text Placeholder 2', 'type="body" orient="vert" idx="1"', [
        'Click to edit Master text styles',
      ]),
  ],
  [
    'Vertical Title and Text',
    'vertTitleAndTx',
    placeholder(
      2,
      'Vertical Title 1',
      'type="title" orient="vert"',
      ['Click to edit Master title style'],
      xfrm(6629400, 274638, 2057400, 5851525),
    ) +
      placeholder(
        3,
        'Vertical Text Placeholder 2',
        'type="body" orient="vert" idx="1"',
        ['Click to edit Master text styles'],
        xfrm(457200, 274638, 6019800, 5851525),
      ),
  ],
];

/** A picture of the slide's one image (relationship rId2), stretched over `geometry`. */
const picture = (id: number, name: string, geometry: string): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}" descr="a blue square"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
  '<p:blipFill><a:blip r:embed="rId2"/><a:stretch><a:fillRect/></a:stretch></p:blipFill>' +
  `<p:spPr>${geometry}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`;

/** Slides: the layout each uses (index into LAYOUTS) and their shapes. */
const SLIDES: [number, string][] = [
  [
    0,
    placeholder(2, 'Title 1', 'type="ctrTitle"', ['Centered Title']) +
      placeholder(3, 'Subtitle 2', 'type="subTitle" idx="1"', ['subtitle']),
  ],
  [
    1,
    placeholder(2, 'Title 1', 'type="title"', ['Title']) +
      placeholder(3, 'Content Placeholder 2', 'idx="1"', [
        'Content',
        '  Level 2',
        '    Level 3',
        '      Level 4',
      ]),
  ],
  [
    2,
    placeholder(2, 'Title 1', 'type="title"', ['Section Title']) +
      placeholder(3, 'Text Placeholder 2', 'type="body" idx="1"', ['Section Header']),
  ],
  [
    3,
    placeholder(2, 'Title 1', 'type="title"', ['Title']) +
      placeholder(3, 'Content Placeholder 2', 'sz="half" idx="1"', ['Left', '  Level 2']) +
      placeholder(4, 'Content Placeholder 3', 'sz="half" idx="2"', ['Right', '  Level 2']),
  ],
  [
    4,
    placeholder(2, 'Title 1', 'type="title"', ['Title']) +
      placeholder(3, 'Text Placeholder 2', 'type="body" idx="1"', ['file1']) +
      placeholder(4, 'Content Placeholder 3', 'sz="half" idx="2"', ['Comparison1', '  Level 2']) +
      placeholder(5, 'Text Placeholder 4', 'type="body" sz="quarter" idx="3"', ['file2']) +
      placeholder(6, 'Content Placeholder 5', 'sz="quarter" idx="4"', ['Comparison2', '  Level 2']),
  ],
  [5, placeholder(2, 'Title 1', 'type="title"', ['Title Only'])],
  [
    6,
    placeholder(2, 'Title 1', 'type="title"', ['Blank with Default Title'], TITLE) +
      textBox(4, 'TextBox 3', xfrm(457200, 1600200, 8229600, 369332), ['Default Text']) +
      '<p:grpSp><p:nvGrpSpPr><p:cNvPr id="6" name="Group 6"/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>' +
      `<p:grpSpPr><a:xfrm><a:off x="457200" y="2286000"/><a:ext cx="8229600" cy="1200329"/><a:chOff x="457200" y="2286000"/><a:chExt cx="8229600" cy="1200329"/></a:xfrm></p:grpSpPr>` +
      textBox(5, 'TextBox 4', xfrm(457200, 2286000, 8229600, 1200329), [
        'Default',
        'Text in a group',
        '  Level 2',
      ]) +
      '</p:grpSp>',
  ],
  [
    7,
    placeholder(2, 'Title 1', 'type="title"', ['Caption']) +
      placeholder(3, 'Content Placeholder 2', 'idx="1"', ['Level 1', '  Level 2']) +
      placeholder(4, 'Text Placeholder 3', 'type="body" sz="half" idx="2"', ['Content with caption']),
  ],
  [
    8,
    placeholder(2, 'Title 1', 'type="title"', ['Picture with Caption']) +
      '<p:sp><p:nvSpPr><p:cNvPr id="5" name="Picture Placeholder 4"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="pic" idx="1"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>' +
      placeholder(4, 'Text Placeholder 3', 'type="body" sz="half" idx="2"', ['Some text']),
  ],
  [
    1,
    placeholder(5, 'Title 4', 'type="title"', ['Headers & Footers']) +
      placeholder(6, 'Content Placeholder 5', 'idx="1"', [
        'This slide has a date, a footer, a slide number and a picture',
      ]) +
      placeholder(7, 'Date Placeholder 6', 'type="dt" sz="half" idx="10"', ['Friday, October 21, 2011']) +
      placeholder(8, 'Footer Placeholder 7', 'type="ftr" sz="quarter" idx="11"', ['Deckforge']) +
      placeholder(9, 'Slide Number Placeholder 8', 'type="sldNum" sz="quarter" idx="12"', ['10']) +
      picture(10, 'Picture 10', xfrm(7315200, 4572000, 1371600, 1371600)) +
      picture(11, 'Picture 11', xfrm(5029200, 4572000, 1828800, 914400)),
  ],
];
const NOTES_SLIDE = 9;

const clrMap =
  'bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" ' +
  'accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"';

const level = (n: number, size: number): string =>
  `<a:lvl${n}pPr marL="${n * 342900}" indent="-342900"><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/>` +
  `<a:defRPr sz="${size}"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl${n}pPr>`;

const master =
  `${PRE}<p:sldMaster ${NS}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${TREE_HEADER}` +
  placeholder(
    2,
    'Title Placeholder 1',
    'type="title"',
    ['Click to edit Master title style'],
    `${TITLE}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  placeholder(
    3,
    'Text Placeholder 2',
    'type="body" idx="1"',
    ['Click to edit Master text styles', '  Second level'],
    `${BODY}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  placeholder(
    4,
    'Date Placeholder 3',
    'type="dt" sz="half" idx="2"',
    [],
    `${DATE}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  placeholder(
    5,
    'Footer Placeholder 4',
    'type="ftr" sz="quarter" idx="3"',
    [],
    `${FOOTER}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  placeholder(
    6,
    'Slide Number Placeholder 5',
    'type="sldNum" sz="quarter" idx="4"',
    [],
    `${NUMBER}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  `</p:spTree></p:cSld><p:clrMap ${clrMap}/>` +
  `<p:sldLayoutIdLst>${LAYOUTS.map((_, i) => `<p:sldLayoutId id="${2147483649 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldLayoutIdLst>` +
  '<p:txStyles><p:titleStyle><a:lvl1pPr algn="ctr"><a:defRPr sz="4400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>' +
  '<a:latin typeface="+mj-lt"/></a:defRPr></a:lvl1pPr></p:titleStyle>' +
  `<p:bodyStyle>${level(1, 3200)}${level(2, 2800)}${level(3, 2400)}${level(4, 2000)}</p:bodyStyle>` +
  '<p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:otherStyle>' +
  '</p:txStyles></p:sldMaster>';

const layoutXml = ([name, type, shapes]: [string, string, string]): string =>
  `${PRE}<p:sldLayout ${NS} type="${type}" preserve="1"><p:cSld name="${name}"><p:spTree>${TREE_HEADER}${shapes}` +
  `${footers(7)}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;

const slideXml = (shapes: string): string =>
  `${PRE}<p:sld ${NS}><p:cSld><p:spTree>${TREE_HEADER}${shapes}</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`;

const colour = (name: string, hex: string): string => `<a:${name}><a:srgbClr val="${hex}"/></a:${name}>`;
const theme = (name: string): string =>
  `${PRE}<a:theme xmlns:a="${NS_A}" name="${name}"><a:themeElements><a:clrScheme name="Layouts">` +
  '<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>' +
  colour('dk2', '1F497D') +
  colour('lt2', 'EEECE1') +
  colour('accent1', '4F81BD') +
  colour('accent2', 'C0504D') +
  colour('accent3', '9BBB59') +
  colour('accent4', '8064A2') +
  colour('accent5', '4BACC6') +
  colour('accent6', 'F79646') +
  colour('hlink', '0000FF') +
  colour('folHlink', '800080') +
  '</a:clrScheme><a:fontScheme name="Layouts"><a:majorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>' +
  '<a:minorFont><a:latin typeface="Calibri"/><a:ea typeface=""/><a:cs typeface=""/></a:minorFont></a:fontScheme>' +
  '<a:fmtScheme name="Layouts"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>' +
  '<a:solidFill><a:schemeClr val="phClr"><a:tint val="50000"/></a:schemeClr></a:solidFill>' +
  '<a:solidFill><a:schemeClr val="phClr"><a:shade val="80000"/></a:schemeClr></a:solidFill></a:fillStyleLst><a:lnStyleLst>' +
  '<a:ln w="9525"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln><a:ln w="25400"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln>' +
  '<a:ln w="38100"><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:ln></a:lnStyleLst><a:effectStyleLst>' +
  '<a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle><a:effectStyle><a:effectLst/></a:effectStyle>' +
  '</a:effectStyleLst><a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>' +
  '<a:solidFill><a:schemeClr val="phClr"><a:tint val="95000"/></a:schemeClr></a:solidFill>' +
  '<a:solidFill><a:schemeClr val="phClr"><a:shade val="90000"/></a:schemeClr></a:solidFill></a:bgFillStyleLst>' +
  '</a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>';

const notesMaster =
  `${PRE}<p:notesMaster ${NS}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${TREE_HEADER}` +
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>` +
  `<p:spPr>${xfrm(1143000, 685800, 4572000, 3429000)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr></p:sp>` +
  placeholder(
    3,
    'Notes Placeholder 2',
    'type="body" sz="quarter" idx="3"',
    ['Click to edit Master text styles'],
    `${xfrm(685800, 4343400, 5486400, 4114800)}<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`,
  ) +
  `</p:spTree></p:cSld><p:clrMap ${clrMap}/><p:notesStyle><a:lvl1pPr><a:defRPr sz="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` +
  '<a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:notesStyle></p:notesMaster>';

const notesSlide =
  `${PRE}<p:notes ${NS}><p:cSld><p:spTree>${TREE_HEADER}` +
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder 1"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
  placeholder(3, 'Notes Placeholder 2', 'type="body" idx="1"', [
    'Speaker notes of the headers and footers slide',
  ]) +
  `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:notes>`;

/** A solid-colour RGB PNG (PNG spec: signature, IHDR, one IDAT of filter-0 rows, IEND). */
function solidPng(width: number, height: number, rgb: [number, number, number]): Uint8Array {
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, truecolour, deflate, no filter method, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => rgb[i % 3]!)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]),
  );
}

function build(): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  const put = (name: string, xml: string): void => void (files[name] = strToU8(xml));
  const override = (part: string, type: string): string =>
    `<Override PartName="/${part}" ContentType="${CT}.${type}"/>`;
  put(
    '[Content_Types].xml',
    `${PRE}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>' +
      override('ppt/presentation.xml', 'presentationml.presentation.main+xml') +
      override('ppt/slideMasters/slideMaster1.xml', 'presentationml.slideMaster+xml') +
      LAYOUTS.map((_, i) =>
        override(`ppt/slideLayouts/slideLayout${i + 1}.xml`, 'presentationml.slideLayout+xml'),
      ).join('') +
      SLIDES.map((_, i) => override(`ppt/slides/slide${i + 1}.xml`, 'presentationml.slide+xml')).join('') +
      override('ppt/notesMasters/notesMaster1.xml', 'presentationml.notesMaster+xml') +
      override('ppt/notesSlides/notesSlide1.xml', 'presentationml.notesSlide+xml') +
      override('ppt/theme/theme1.xml', 'theme+xml') +
      override('ppt/theme/theme2.xml', 'theme+xml') +
      override('docProps/app.xml', 'extended-properties+xml') +
      '</Types>',
  );
  put(
    '_rels/.rels',
    rels([
      ['rId1', 'officeDocument', 'ppt/presentation.xml'],
      ['rId2', 'extended-properties', 'docProps/app.xml'],
    ]),
  );
  put(
    'docProps/app.xml',
    `${PRE}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">` +
      `<Application>Deckforge tests</Application><Slides>${SLIDES.length}</Slides><Notes>1</Notes></Properties>`,
  );
  put(
    'ppt/presentation.xml',
    `${PRE}<p:presentation ${NS} saveSubsetFonts="1">` +
      '<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>' +
      '<p:notesMasterIdLst><p:notesMasterId r:id="rId3"/></p:notesMasterIdLst>' +
      `<p:sldIdLst>${SLIDES.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>` +
      `<p:sldSz cx="${W}" cy="${H}" type="screen4x3"/><p:notesSz cx="6858000" cy="9144000"/>` +
      '<p:defaultTextStyle><a:lvl1pPr><a:defRPr sz="1800"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>' +
      '<a:latin typeface="+mn-lt"/></a:defRPr></a:lvl1pPr></p:defaultTextStyle></p:presentation>',
  );
  put(
    'ppt/_rels/presentation.xml.rels',
    rels([
      ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
      ['rId2', 'theme', 'theme/theme1.xml'],
      ['rId3', 'notesMaster', 'notesMasters/notesMaster1.xml'],
      ...SLIDES.map((_, i): Rel => [`rId${10 + i}`, 'slide', `slides/slide${i + 1}.xml`]),
    ]),
  );
  put('ppt/slideMasters/slideMaster1.xml', master);
  put(
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    rels([
      ...LAYOUTS.map((_, i): Rel => [
        `rId${i + 1}`,
        'slideLayout',
        `../slideLayouts/slideLayout${i + 1}.xml`,
      ]),
      [`rId${LAYOUTS.length + 1}`, 'theme', '../theme/theme1.xml'],
    ]),
  );
  LAYOUTS.forEach((layout, i) => {
    put(`ppt/slideLayouts/slideLayout${i + 1}.xml`, layoutXml(layout));
    put(
      `ppt/slideLayouts/_rels/slideLayout${i + 1}.xml.rels`,
      rels([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]),
    );
  });
  SLIDES.forEach(([layout, shapes], i) => {
    put(`ppt/slides/slide${i + 1}.xml`, slideXml(shapes));
    const own: Rel[] = [['rId1', 'slideLayout', `../slideLayouts/slideLayout${layout + 1}.xml`]];
    if (i === NOTES_SLIDE)
      own.push(
        ['rId2', 'image', '../media/image1.png'],
        ['rId3', 'notesSlide', '../notesSlides/notesSlide1.xml'],
      );
    put(`ppt/slides/_rels/slide${i + 1}.xml.rels`, rels(own));
  });
  files['ppt/media/image1.png'] = solidPng(16, 16, [20, 40, 220]);
  put('ppt/notesMasters/notesMaster1.xml', notesMaster);
  put('ppt/notesMasters/_rels/notesMaster1.xml.rels', rels([['rId1', 'theme', '../theme/theme2.xml']]));
  put('ppt/notesSlides/notesSlide1.xml', notesSlide);
  put(
    'ppt/notesSlides/_rels/notesSlide1.xml.rels',
    rels([
      ['rId1', 'notesMaster', '../notesMasters/notesMaster1.xml'],
      ['rId2', 'slide', `../slides/slide${NOTES_SLIDE + 1}.xml`],
    ]),
  );
  put('ppt/theme/theme1.xml', theme('Layouts'));
  put('ppt/theme/theme2.xml', theme('Layouts Notes'));
  // A fixed date keeps the bytes, and so the file's name below, the same on every run.
  return zipSync(files, { mtime: new Date('2020-01-01T00:00:00Z') });
}

let bytes: Uint8Array | undefined;

/** The template's bytes (a fresh copy each call). */
export function layoutsTemplate(): Uint8Array {
  bytes ??= build();
  return bytes.slice();
}

/**
 * The template as a file, for tests that hand a path to the CLI or to curl: written once per content into the
 * temp folder (through a rename, so test files running side by side never see half a file).
 */
export function layoutsTemplatePath(): string {
  const content = layoutsTemplate();
  const dir = join(
    tmpdir(),
    `deckforge-layouts-${createHash('sha256').update(content).digest('hex').slice(0, 16)}`,
  );
  const path = join(dir, 'layouts.pptx');
  if (!existsSync(path)) {
    mkdirSync(dir, { recursive: true });
    const partial = join(dir, `layouts.pptx.${process.pid}.partial`);
    writeFileSync(partial, content);
    renameSync(partial, path);
  }
  return path;
}

const cell = (text: string): string =>
  `<a:tc><a:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" sz="1400" dirty="0"/><a:t>${text}</a:t></a:r></a:p></a:txBody><a:tcPr/></a:tc>`;
const tableRow = (cells: string[]): string => `<a:tr h="300000">${cells.map(cell).join('')}</a:tr>`;

/**
 * The layouts template with a table on slide 0, under its title (over its subtitle): "Table 1", a header row and three
 * body rows of three columns (Region, Q1, Q2) in 14-point text: the table-continuation tests' template.
 */
export function tableTemplate(): Uint8Array {
  const frame =
    '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Table 1"/><p:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></p:cNvGraphicFramePr><p:nvPr/></p:nvGraphicFramePr>' +
    '<p:xfrm><a:off x="457200" y="1600200"/><a:ext cx="8229600" cy="1200000"/></p:xfrm>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1" bandRow="1"/>' +
    '<a:tblGrid><a:gridCol w="2743200"/><a:gridCol w="2743200"/><a:gridCol w="2743200"/></a:tblGrid>' +
    [
      ['Region', 'Q1', 'Q2'],
      ['North', '1', '2'],
      ['South', '3', '4'],
      ['East', '5', '6'],
    ]
      .map(tableRow)
      .join('') +
    '</a:tbl></a:graphicData></a:graphic></p:graphicFrame>';
  return editPart(layoutsTemplate(), 'ppt/slides/slide1.xml', (xml) =>
    xml.replace('</p:spTree>', `${frame}</p:spTree>`),
  );
}
