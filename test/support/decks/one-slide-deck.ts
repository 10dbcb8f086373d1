/**
 * Decks of one slide (or a few) built on the layouts template (layouts-template.ts: its master, eleven layouts, themes and
 * notes master), for the engine's chart, chartEx, table and picture scenarios: the caller gives the slide's
 * shapes, its relationships and the parts they point at; everything else is the layouts template's, with its
 * ten slides, its notes page and its picture left out.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { layoutsTemplate } from './layouts-template.js';

const PRE = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
export const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const TREE_HEADER =
  '<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr><a:xfrm><a:off x="0" y="0"/>' +
  '<a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>';

/**
 * A relationship of the slide: id, type (a full URI, or the last segment of an officeDocument one), target, and
 * 'External' for a target outside the package.
 */
export type SlideRel = [id: string, type: string, target: string, mode?: 'External'];

export function relationships(items: readonly SlideRel[]): string {
  return (
    `${PRE}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
    items
      .map(([id, type, target, mode]) => {
        const uri = type.includes('://') ? type : `${REL}/${type}`;
        return `<Relationship Id="${id}" Type="${uri}" Target="${target}"${mode ? ` TargetMode="${mode}"` : ''}/>`;
      })
      .join('') +
    '</Relationships>'
  );
}

export interface OneSlide {
  /** The slide's shapes (the `p:spTree` content after its group header); ids from 2 up. */
  shapes: string;
  /** The slide's relationships besides its layout (rId1 is the layout). */
  rels?: SlideRel[];
  /** Parts the slide (or its parts) point at, by name in the package, with their content type (null: by extension). */
  parts?: Record<string, { bytes: Uint8Array | string; type: string | null }>;
  /** Default content types by extension the parts need, e.g. { xlsx: '...sheet' }. */
  defaults?: Record<string, string>;
  /** The layout the slide uses, 1-based (2 is "Title and Content"). */
  layout?: number;
}

/** The bytes of a deck whose one slide is `slide`, on the layouts template's master and layouts. */
export function oneSlideDeck(slide: OneSlide): Uint8Array {
  return slidesDeck([slide]);
}

/** The bytes of a deck of `slides` in order (slide part i + 1 each), on the layouts template's master and layouts. */
export function slidesDeck(slides: readonly OneSlide[]): Uint8Array {
  const files = unzipSync(layoutsTemplate());
  for (const name of Object.keys(files))
    if (/^ppt\/(slides|notesSlides|media)\//.test(name)) delete files[name];
  const text = (name: string): string => strFromU8(files[name]!);
  const put = (name: string, value: string | Uint8Array): void =>
    void (files[name] = typeof value === 'string' ? strToU8(value) : value.slice());

  let types = text('[Content_Types].xml')
    .replace(/<Override PartName="\/ppt\/(slides|notesSlides)\/[^"]*"[^>]*\/>/g, '')
    .replace(
      '</Types>',
      slides
        .map(
          (_, i) =>
            `<Override PartName="/ppt/slides/slide${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.slide+xml"/>`,
        )
        .join('') + '</Types>',
    );
  for (const slide of slides) {
    for (const [ext, type] of Object.entries(slide.defaults ?? {}))
      if (!types.includes(`Extension="${ext}"`))
        types = types.replace(
          '<Default Extension="xml"',
          `<Default Extension="${ext}" ContentType="${type}"/><Default Extension="xml"`,
        );
    for (const [name, part] of Object.entries(slide.parts ?? {})) {
      put(name, part.bytes);
      if (part.type !== null)
        types = types.replace(
          '</Types>',
          `<Override PartName="/${name}" ContentType="${part.type}"/></Types>`,
        );
    }
  }
  put('[Content_Types].xml', types);
  put(
    'ppt/presentation.xml',
    text('ppt/presentation.xml').replace(
      /<p:sldIdLst>[\s\S]*?<\/p:sldIdLst>/,
      `<p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${10 + i}"/>`).join('')}</p:sldIdLst>`,
    ),
  );
  const slideRels = slides
    .map((_, i) => `<Relationship Id="rId${10 + i}" Type="${REL}/slide" Target="slides/slide${i + 1}.xml"/>`)
    .join('');
  put(
    'ppt/_rels/presentation.xml.rels',
    text('ppt/_rels/presentation.xml.rels')
      .replace(/<Relationship Id="rId1\d+"[^>]*\/>/g, '')
      .replace('</Relationships>', `${slideRels}</Relationships>`),
  );
  put(
    'docProps/app.xml',
    text('docProps/app.xml').replace(
      /<Slides>\d+<\/Slides><Notes>\d+<\/Notes>/,
      `<Slides>${slides.length}</Slides><Notes>0</Notes>`,
    ),
  );
  slides.forEach((slide, i) => {
    put(
      `ppt/slides/slide${i + 1}.xml`,
      `${PRE}<p:sld ${NS}><p:cSld><p:spTree>${TREE_HEADER}${slide.shapes}</p:spTree></p:cSld>` +
        '<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>',
    );
    put(
      `ppt/slides/_rels/slide${i + 1}.xml.rels`,
      relationships([
        ['rId1', 'slideLayout', `../slideLayouts/slideLayout${slide.layout ?? 2}.xml`],
        ...(slide.rels ?? []),
      ]),
    );
  });
  // A fixed date keeps the bytes the same on every run.
  return zipSync(files, { mtime: new Date('2020-01-01T00:00:00Z') });
}

/** A title placeholder (the layout's "Title 1") with `text`, shape id 2. */
export function titleShape(text: string): string {
  return (
    '<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title 1"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>' +
    `<p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US" dirty="0"/><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`
  );
}

let linkedBytes: Uint8Array | undefined;

/**
 * Two slides, the first with a text box whose text links to the second (a hyperlink jumping to a slide of the
 * deck, through a slide relationship): "Go to the details" on slide 0, "Details" on slide 1.
 */
export function linkedSlidesDeck(): Uint8Array {
  const box = (text: string, link: string): string =>
    '<p:sp><p:nvSpPr><p:cNvPr id="3" name="TextBox 2"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>' +
    '<p:spPr><a:xfrm><a:off x="457200" y="1600200"/><a:ext cx="4572000" cy="646331"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>' +
    `<p:txBody><a:bodyPr wrap="square"/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US">${link}</a:rPr><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
  linkedBytes ??= slidesDeck([
    {
      layout: 6,
      shapes:
        titleShape('Overview') +
        box('Go to the details', '<a:hlinkClick r:id="rId2" action="ppaction://hlinksldjump"/>'),
      rels: [['rId2', 'slide', 'slide2.xml']],
    },
    { layout: 6, shapes: titleShape('Details') + box('The details', '') },
  ]);
  return linkedBytes.slice();
}
