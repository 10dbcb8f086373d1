/**
 * Decks that try to make a renderer read, fetch, run or show what it must not, as an attacker would write them
 * (docs/security.md, "Rendering untrusted decks"): each trick is one function of a base deck, so a test can
 * render one trick per deck or combine them. The tricks point at `RenderTargets`: secret pictures and texts a
 * test planted on the server's disk, and a canary web server on loopback.
 */
import { strFromU8, strToU8 } from 'fflate';
import { editPackage, type PackageFiles } from './package-edit.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const IMAGE = `${R}/image`;
const HYPERLINK = `${R}/hyperlink`;
const CORE = 'http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties';
const OLE_URI = 'http://schemas.openxmlformats.org/presentationml/2006/ole';

export interface RenderTargets {
  /** Absolute paths of secret PNGs planted on the server's disk (one per place). */
  pictures: string[];
  /** `http://127.0.0.1:PORT`: a canary web server; any request it sees is a failure. */
  canary: string;
}

/** The slide parts of `files` in the order of their numbers (previewDeck's order), and a slide's relationships' item. */
export function slideItems(files: PackageFiles): { slides: string[]; rels: (slide: string) => string } {
  const slides = Object.keys(files)
    .filter((name) => /^ppt\/slides\/[^/]+\.xml$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  return { slides, rels: (slide) => slide.replace('ppt/slides/', 'ppt/slides/_rels/') + '.rels' };
}

const text = (files: PackageFiles, item: string): string => strFromU8(files[item] as Uint8Array);
const put = (files: PackageFiles, item: string, value: string): void => void (files[item] = strToU8(value));

/** Adds `shapes` to the slide item's shape tree and `rels` ([id, type, target, external]) to its relationships. */
export function addToSlide(
  files: PackageFiles,
  slide: string,
  shapes: string,
  rels: [string, string, string, boolean][],
): void {
  put(files, slide, text(files, slide).replace('</p:spTree>', `${shapes}</p:spTree>`));
  const relsItem = slide.replace(/^(.*)\/([^/]+)$/, '$1/_rels/$2.rels');
  const existing =
    files[relsItem] === undefined
      ? '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
      : text(files, relsItem);
  const added = rels
    .map(
      ([id, type, target, external]) =>
        `<Relationship Id="${id}" Type="${type}" Target="${escape(target)}"${external ? ' TargetMode="External"' : ''}/>`,
    )
    .join('');
  put(files, relsItem, existing.replace('</Relationships>', `${added}</Relationships>`));
}

export const picture = (id: number, blip: string, nvPr = '<p:nvPr/>'): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Trick ${id}"/><p:cNvPicPr/>${nvPr}</p:nvPicPr>` +
  `<p:blipFill>${blip}<a:stretch><a:fillRect/></a:stretch></p:blipFill><p:spPr><a:xfrm>` +
  `<a:off x="${400000 + (id % 7) * 1200000}" y="3400000"/><a:ext cx="1100000" cy="1100000"/></a:xfrm>` +
  '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>';

export const textBox = (id: number, paragraph: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Trick ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
  `<p:spPr><a:xfrm><a:off x="400000" y="${2000000 + (id % 5) * 300000}"/><a:ext cx="8000000" cy="300000"/>` +
  `</a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr><p:txBody><a:bodyPr/><a:lstStyle/><a:p>${paragraph}</a:p></p:txBody></p:sp>`;

const link = (relId: string, words: string, action = ''): string =>
  `<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="${relId}"${action ? ` action="${action}"` : ''}/></a:rPr><a:t>${words}</a:t></a:r>`;

/** An SVG under a `.png` name whose `<image>`s name each secret picture by `file:` URL (and the canary). */
export function svgNamedPng(targets: RenderTargets): (files: PackageFiles) => void {
  const images = [...targets.pictures.map((path) => `file://${path}`), `${targets.canary}/svg.png`]
    .map(
      (href, i) =>
        `<image x="${(i % 4) * 80}" y="${Math.floor(i / 4) * 60}" width="80" height="60" xlink:href="${escape(href)}"/>`,
    )
    .join('');
  const svg =
    '<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" ' +
    `xmlns:xlink="http://www.w3.org/1999/xlink" width="320" height="240">${images}</svg>`;
  return (files) => {
    files['ppt/media/photo-svg.png'] = strToU8(svg);
    const [slide] = slideItems(files).slides;
    addToSlide(files, slide as string, picture(901, '<a:blip r:embed="rIdSvg"/>'), [
      ['rIdSvg', IMAGE, '../media/photo-svg.png', false],
    ]);
  };
}

/**
 * An HLS playlist (`#EXTM3U`) whose segments are the secret pictures by `file:` URL and the canary, behind a
 * picture: as a picture, and as a video whose poster is that same "picture" (LibreOffice then asks its media
 * backend for a frame: GStreamer reads the segments). `videoOnly`: the video alone.
 */
export function playlistAsPicture(targets: RenderTargets, videoOnly = false): (files: PackageFiles) => void {
  const segments = [
    ...targets.pictures.map((path) => `file://${path}`),
    `${targets.canary}/segment-1.ts`,
    `${targets.canary}/segment-2.ts`,
  ];
  const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:10\n${segments.map((s) => `#EXTINF:10,\n${s}\n`).join('')}#EXT-X-ENDLIST\n`;
  return (files) => {
    files['ppt/media/photo-hls.png'] = strToU8(playlist);
    const [slide] = slideItems(files).slides;
    const video = picture(
      903,
      '<a:blip r:embed="rIdHls"/>',
      '<p:nvPr><a:videoFile r:link="rIdHls"/></p:nvPr>',
    );
    addToSlide(
      files,
      slide as string,
      videoOnly ? video : picture(902, '<a:blip r:embed="rIdHls"/>') + video,
      [['rIdHls', IMAGE, '../media/photo-hls.png', false]],
    );
  };
}

/**
 * Relationships whose Type lies: an image relationship to an OLE compound file used by `p:oleObj`, and one to a
 * video used by `a:videoFile` (the poster picture beside it is an honest PNG, `poster`).
 */
export function lyingRelationshipTypes(poster: Uint8Array): (files: PackageFiles) => void {
  // The first bytes of an OLE compound file and of an MP4: enough for a renderer to take them for what they are.
  const ole = Uint8Array.from([
    0xd0,
    0xcf,
    0x11,
    0xe0,
    0xa1,
    0xb1,
    0x1a,
    0xe1,
    ...new Array<number>(504).fill(0),
  ]);
  const video = Uint8Array.from([0, 0, 0, 0x18, ...strToU8('ftypmp42'), 0, 0, 0, 0, ...strToU8('mp42isom')]);
  return (files) => {
    files['ppt/media/lying-ole.png'] = ole;
    files['ppt/media/lying-video.png'] = video;
    files['ppt/media/poster.png'] = poster;
    const [slide] = slideItems(files).slides;
    const oleFrame =
      '<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="904" name="Trick 904"/><p:cNvGraphicFramePr/><p:nvPr/>' +
      '</p:nvGraphicFramePr><p:xfrm><a:off x="6000000" y="600000"/><a:ext cx="1000000" cy="800000"/></p:xfrm>' +
      `<a:graphic><a:graphicData uri="${OLE_URI}"><p:oleObj name="Sheet" r:id="rIdLyingOle" progId="Package" ` +
      'imgW="1000000" imgH="800000"><p:embed/>' +
      picture(905, '<a:blip r:embed="rIdPoster"/>') +
      '</p:oleObj></a:graphicData></a:graphic></p:graphicFrame>';
    addToSlide(
      files,
      slide as string,
      oleFrame +
        picture(
          906,
          '<a:blip r:embed="rIdPoster"/>',
          '<p:nvPr><a:videoFile r:link="rIdLyingVideo"/></p:nvPr>',
        ),
      [
        ['rIdLyingOle', IMAGE, '../media/lying-ole.png', false],
        ['rIdLyingVideo', IMAGE, '../media/lying-video.png', false],
        ['rIdPoster', IMAGE, '../media/poster.png', false],
      ],
    );
  };
}

/** The hyperlinks that must go (`.uno:Quit`, `file:///`, a program, a macro, internal non-slide targets) and the two that stay. */
export const KEPT_LINKS = ['https://example.com/deckforge-kept', 'mailto:kept@example.com'];
export function hostileHyperlinks(secretPath: string): (files: PackageFiles) => void {
  return (files) => {
    const [slide] = slideItems(files).slides;
    addToSlide(
      files,
      slide as string,
      textBox(
        910,
        link('rIdUno', 'Quit command ') +
          link('rIdFile', 'Local file ') +
          link('rIdUnoInternal', 'Internal command ') +
          link('rIdProgram', 'A program ', 'ppaction://program') +
          link('', 'A macro ', 'ppaction://macro?name=AutoOpen') +
          link('rIdWeb', 'Web page ') +
          link('rIdMail', 'Mail'),
      ),
      [
        ['rIdUno', HYPERLINK, '.uno:Quit', true],
        ['rIdFile', HYPERLINK, `file://${secretPath}`, true],
        ['rIdUnoInternal', HYPERLINK, '.uno:Quit', false],
        ['rIdProgram', HYPERLINK, 'file:///usr/bin/id', true],
        ['rIdWeb', HYPERLINK, KEPT_LINKS[0] as string, true],
        ['rIdMail', HYPERLINK, KEPT_LINKS[1] as string, true],
      ],
    );
  };
}

/**
 * `file:` URLs in every kind of part the deck has: pictures linked by `file:` from the slide, its layout, its
 * master, the theme and the notes master; attribute values that name files; docProps/app.xml's HyperlinkBase
 * (against which a relative hyperlink would resolve) and docProps/core.xml.
 */
export function fileUrlsEverywhere(targets: RenderTargets): (files: PackageFiles) => void {
  const secret = targets.pictures[0] as string;
  const linked = (id: string): string => `<a:blip r:link="${id}"/>`;
  return (files) => {
    const [slide] = slideItems(files).slides;
    const layout = /Target="\.\.\/slideLayouts\/([^"]+)"/.exec(
      text(files, `${slideItems(files).rels(slide as string)}`),
    )?.[1];
    const owners = [
      slide as string,
      `ppt/slideLayouts/${layout}`,
      'ppt/slideMasters/slideMaster1.xml',
      'ppt/notesMasters/notesMaster1.xml',
    ];
    owners.forEach((owner, i) => {
      addToSlide(
        files,
        owner,
        picture(920 + i, linked(`rIdFileUrl${i}`)).replace(
          'name="Trick',
          `descr="file://${secret}" name="Trick`,
        ),
        [[`rIdFileUrl${i}`, IMAGE, `file://${secret}`, true]],
      );
    });
    // The theme's background fill: a picture by file URL.
    put(
      files,
      'ppt/theme/theme1.xml',
      text(files, 'ppt/theme/theme1.xml').replace(
        /<a:bgFillStyleLst>/,
        `<a:bgFillStyleLst><a:blipFill><a:blip r:link="rIdThemeFile"/><a:stretch><a:fillRect/></a:stretch></a:blipFill>`,
      ),
    );
    put(
      files,
      'ppt/theme/_rels/theme1.xml.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rIdThemeFile" Type="${IMAGE}" Target="file://${secret}" TargetMode="External"/></Relationships>`,
    );
    const folder = secret.slice(0, secret.lastIndexOf('/') + 1);
    put(
      files,
      'docProps/app.xml',
      text(files, 'docProps/app.xml').replace(
        '</Properties>',
        `<HyperlinkBase>file://${folder}</HyperlinkBase></Properties>`,
      ),
    );
    put(
      files,
      'docProps/core.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<cp:coreProperties ' +
        'xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
        'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Tricks</dc:title>' +
        `<dc:subject>file://${secret}</dc:subject></cp:coreProperties>`,
    );
    put(
      files,
      '[Content_Types].xml',
      text(files, '[Content_Types].xml').replace(
        '</Types>',
        '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
      ),
    );
    put(
      files,
      '_rels/.rels',
      text(files, '_rels/.rels').replace(
        '</Relationships>',
        `<Relationship Id="rIdCore" Type="${CORE}" Target="docProps/core.xml"/></Relationships>`,
      ),
    );
    // A relative hyperlink, which LibreOffice resolves against the base or the document's own folder.
    addToSlide(files, slide as string, textBox(921, link('rIdRelative', 'Relative link')), [
      ['rIdRelative', HYPERLINK, secret.slice(secret.lastIndexOf('/') + 1), true],
    ]);
  };
}

/** A field of type "file" (the document's path) on a slide whose part is UTF-16 with a byte-order mark, named .xml. */
export function fieldInUtf16Part(files: PackageFiles): void {
  const [slide] = slideItems(files).slides;
  addToSlide(files, slide as string, textBox(930, fileField('FieldInUtf16')), []);
  const xml = text(files, slide as string).replace('encoding="UTF-8"', 'encoding="UTF-16"');
  files[slide as string] = utf16le(xml);
}

/** The same field on the last slide, whose part is not named .xml (`slideN-part.bin`, typed by an Override). */
export function fieldInPartNotNamedXml(files: PackageFiles): void {
  const { slides, rels } = slideItems(files);
  const slide = slides[slides.length - 1] as string;
  addToSlide(files, slide, textBox(931, fileField('FieldNotXml')), []);
  const renamed = slide.replace(/\.xml$/, '-part.bin');
  files[renamed] = files[slide] as Uint8Array;
  files[rels(renamed)] = files[rels(slide)] as Uint8Array;
  delete files[slide];
  delete files[rels(slide)];
  const base = slide.slice('ppt/'.length);
  put(
    files,
    'ppt/_rels/presentation.xml.rels',
    text(files, 'ppt/_rels/presentation.xml.rels').replace(
      `Target="${base}"`,
      `Target="${base.replace(/\.xml$/, '-part.bin')}"`,
    ),
  );
  put(
    files,
    '[Content_Types].xml',
    text(files, '[Content_Types].xml').replace(`PartName="/${slide}"`, `PartName="/${renamed}"`),
  );
}

function fileField(words: string): string {
  return `<a:fld id="{5C2E3A51-2D1A-4B7E-9F3C-1A2B3C4D5E6F}" type="file"><a:rPr lang="en-US"/><a:t>${words}</a:t></a:fld>`;
}

/**
 * A second slide list wherever LibreOffice looks: at the root, in p:notesMasterIdLst, in an extension and in
 * mc:AlternateContent, each naming the deck's slides `copies` times.
 */
export function secondSlideLists(copies: number): (files: PackageFiles) => void {
  return (files) => {
    const item = 'ppt/presentation.xml';
    const xml = text(files, item);
    const entries = [...xml.matchAll(/<p:sldId id="(\d+)" r:id="([^"]+)"\/>/g)];
    const many = (start: number): string =>
      Array.from({ length: copies }, (_, i) =>
        entries.map(([, , rid], j) => `<p:sldId id="${start + i * 10 + j}" r:id="${rid}"/>`).join(''),
      ).join('');
    put(
      files,
      item,
      xml
        .replace('</p:notesMasterIdLst>', `${many(5000)}</p:notesMasterIdLst>`)
        .replace(
          '<p:sldSz',
          `<p:sldIdLst>${many(10000)}</p:sldIdLst>` +
            '<mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006">' +
            `<mc:Choice Requires="p"><p:sldIdLst>${many(20000)}</p:sldIdLst></mc:Choice>` +
            `<mc:Fallback><p:sldIdLst>${many(30000)}</p:sldIdLst></mc:Fallback></mc:AlternateContent><p:sldSz`,
        )
        .replace(
          '</p:presentation>',
          `<p:extLst><p:ext uri="{521415D9-36F7-43E2-AB2F-B90AF26B5E84}"><p:sldIdLst>${many(40000)}</p:sldIdLst></p:ext></p:extLst></p:presentation>`,
        ),
    );
  };
}

/** A 20 000 × 20 000 PNG (`png`, e.g. pngClaiming) named .bin, with no content type, as a picture of the slide. */
export function hugePictureNamedBin(png: Uint8Array): (files: PackageFiles) => void {
  return (files) => {
    files['ppt/media/texture.bin'] = png;
    const [slide] = slideItems(files).slides;
    addToSlide(files, slide as string, picture(940, '<a:blip r:embed="rIdHuge"/>'), [
      ['rIdHuge', IMAGE, '../media/texture.bin', false],
    ]);
  };
}

/** PostScript that reads a file (`secretText`) and draws it, as an EPS picture of the slide. */
export function postscriptPicture(secretText: string): (files: PackageFiles) => void {
  const eps =
    '%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 300 100\n/Helvetica findfont 12 scalefont setfont\n' +
    `10 50 moveto (${secretText}) (r) file 100 string readstring pop show\nshowpage\n%%EOF\n`;
  return (files) => {
    files['ppt/media/drawing.eps'] = strToU8(eps);
    const [slide] = slideItems(files).slides;
    addToSlide(files, slide as string, picture(950, '<a:blip r:embed="rIdEps"/>'), [
      ['rIdEps', IMAGE, '../media/drawing.eps', false],
    ]);
  };
}

/** A DOS EPS binary file: PostScript that reads `secretText`, and `tiff` as its preview. */
export function dosEps(secretText: string, tiff: Uint8Array): Uint8Array {
  const ps = strToU8(
    `%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n(${secretText}) (r) file pop\nshowpage\n`,
  );
  const header = new Uint8Array(30);
  const view = new DataView(header.buffer);
  header.set([0xc5, 0xd0, 0xd3, 0xc6]);
  view.setUint32(4, 30, true);
  view.setUint32(8, ps.length, true);
  view.setUint32(20, 30 + ps.length, true);
  view.setUint32(24, tiff.length, true);
  view.setUint16(28, 0xffff, true);
  return Uint8Array.from([...header, ...ps, ...tiff]);
}

/** Applies `tricks` to `bytes`, in order. */
export function withTricks(bytes: Uint8Array, ...tricks: ((files: PackageFiles) => void)[]): Uint8Array {
  return editPackage(bytes, (files) => tricks.forEach((trick) => trick(files)));
}

function utf16le(value: string): Uint8Array {
  const out = new Uint8Array(2 + value.length * 2);
  out.set([0xff, 0xfe]);
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    out[2 + i * 2] = code & 0xff;
    out[3 + i * 2] = code >> 8;
  }
  return out;
}

function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** `count` distinct https hyperlinks on the first slide, each on its own run (what a link-heavy deck holds). */
export function manyHyperlinks(count: number): (files: PackageFiles) => void {
  return (files) => {
    const [slide] = slideItems(files).slides;
    const runs = Array.from({ length: count }, (_, i) => link(`rIdMany${i}`, `Link ${i} `)).join('');
    addToSlide(
      files,
      slide as string,
      textBox(960, runs),
      Array.from({ length: count }, (_, i): [string, string, string, boolean] => [
        `rIdMany${i}`,
        HYPERLINK,
        `https://example.com/page/${i}`,
        true,
      ]),
    );
  };
}

/**
 * `count` external hyperlink relationships nothing uses, on a slide made `fillerBytes` larger by an attribute
 * of a foreign namespace (a short text repeated: it deflates about 80 to 1, within the package's ratio limit).
 */
export function unusedHyperlinks(count: number, fillerBytes: number): (files: PackageFiles) => void {
  return (files) => {
    const [slide] = slideItems(files).slides;
    const unit = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
    const filler = `<p:extLst><p:ext uri="{00000000-0000-0000-0000-000000000000}" xmlns:x="urn:filler" x:f="${unit.repeat(Math.ceil(fillerBytes / unit.length))}"/></p:extLst>`;
    put(
      files,
      slide as string,
      text(files, slide as string).replace('</p:clrMapOvr>', `</p:clrMapOvr>${filler}`),
    );
    addToSlide(
      files,
      slide as string,
      '',
      Array.from({ length: count }, (_, i): [string, string, string, boolean] => [
        `rIdUnused${i}`,
        HYPERLINK,
        `https://example.com/unused/${i}`,
        true,
      ]),
    );
  };
}

/** An XML part of about `bytes` that nothing refers to: a renderer never reads it, the render-safe copy does. */
export function orphanXmlPart(bytes: number): (files: PackageFiles) => void {
  const unit = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + ((i * 7919) % 26))).join('');
  return (files) => {
    files['customXml/orphan.xml'] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><data>${`<v a="${unit}"/>`.repeat(Math.ceil(bytes / (unit.length + 10)))}</data>`,
    );
  };
}

/** `count` runs on the first slide, each in a font family of its own (`label` and a number) that no machine has. */
export function missingFonts(count: number, label = 'Deckforge Missing'): (files: PackageFiles) => void {
  return (files) => {
    const [slide] = slideItems(files).slides;
    const runs = Array.from(
      { length: count },
      (_, i) => `<a:r><a:rPr lang="en-US"><a:latin typeface="${label} ${i}"/></a:rPr><a:t>F${i} </a:t></a:r>`,
    ).join('');
    addToSlide(files, slide as string, textBox(970, runs), []);
  };
}
