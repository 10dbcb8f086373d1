/**
 * The normalised, alias-free request the rest of the engine works with. `payload/` turns the raw `jsonData`
 * (docs/payload.md: every alias and older spelling) into this; nothing downstream ever sees an alias.
 * Every request object keeps `path`, its JSON path in the original payload, for errors and warnings.
 */
export type ValidationMode = 'strict' | 'lenient';
export type ExportVersion = 'Pptx2010' | 'Pptx2013' | 'Pptx2019';
/** `presentation.accessibility`: check nothing, warn about what readers miss, or refuse such a deck. */
export type AccessibilityMode = 'off' | 'report' | 'require';

export interface DeckRequest {
  /** One entry (id null) for `template`; one per `template_list` entry otherwise. */
  templates: TemplateRef[];
  /** BCP 47, canonical: the locale typed values were written in (they are text by now). */
  locale: string;
  /** null: keep the template's application version (LibreOffice reads it to interpret Office 2007 charts). */
  exportVersion: ExportVersion | null;
  /** Sanitised, without `.pptx`; null when the payload gave none (the caller derives it from the template). */
  resultFileName: string | null;
  slides: SlideRequest[];
  tags: Tag[];
  tagValidation: ValidationMode;
  shapeValidation: ValidationMode;
  accessibility: AccessibilityMode;
  /** Every `{"slide": N}` hyperlink of the payload. */
  slideLinks: SlideLink[];
  /** `theme`, `fonts`, `masters` and `layouts` (docs/payload.md "Brand"). */
  brand: BrandRequest;
}

export interface TemplateRef {
  id: string | null;
  /** An uploaded file name (exact) or an http(s) URL. */
  source: string;
  path: string;
  /** A `template_list` entry's own `theme`: wins over `presentation.theme` for this template, slot by slot. */
  theme?: ThemeChange;
}

export interface BrandRequest {
  /** `presentation.theme`: what changes in the theme of every template of the deck. */
  theme: ThemeChange | null;
  /** Uploaded font files to embed in the deck. */
  fonts: FontRequest[];
  /** `masters` then `layouts` entries: shapes filled on a slide master or layout. */
  pages: PageRequest[];
}

/** The slots of a theme's colour scheme, in their schema order (ECMA-376 Part 1 §20.1.4.1.10 clrScheme). */
export type ThemeColourSlot =
  | 'dk1'
  | 'lt1'
  | 'dk2'
  | 'lt2'
  | 'accent1'
  | 'accent2'
  | 'accent3'
  | 'accent4'
  | 'accent5'
  | 'accent6'
  | 'hlink'
  | 'folHlink';

export interface ThemeChange {
  path: string;
  /** Colours as upper-case `RRGGBB`. */
  colors: Partial<Record<ThemeColourSlot, string>>;
  /** The theme's heading (major) and body (minor) fonts, per script. */
  fonts: { major?: ThemeFonts; minor?: ThemeFonts };
}

export interface ThemeFonts {
  latin?: string;
  ea?: string;
  cs?: string;
}

export interface FontRequest {
  /** Of the file name (`presentation.fonts[0].file`, or `presentation.fonts[0]` for a bare name). */
  path: string;
  /** The uploaded file's name (exact). */
  file: string;
}

/** A slide master or layout of a template whose shapes are filled, as a slide's are. */
export interface PageRequest {
  path: string;
  kind: 'master' | 'layout';
  templateId: string | null;
  /** Masters in presentation.xml's order; layouts counted as `type: "layout"` counts them. */
  index: number;
  shapes: ShapeRequest[];
  tags: Tag[];
  shapeValidation: ValidationMode | null;
}

export interface Tag {
  key: string;
  value: string;
}

/** `all`: every slide of the template, in order (generate.ts expands it into one entry per slide). */
export type SlideSelector = { by: 'index'; index: number } | { by: 'id'; id: number } | { by: 'all' };

export interface SlideRequest {
  path: string;
  kind: 'slide' | 'layout';
  templateId: string | null;
  select: SlideSelector;
  shapes: ShapeRequest[];
  notes: TextContent | null;
  tags: Tag[];
  /** null: inherit the deck's mode. */
  tagValidation: ValidationMode | null;
  shapeValidation: ValidationMode | null;
  /**
   * On the entries an `all_slides` entry became (slide-entries.ts): this one's place among them and how many
   * there are. Its tags apply to each of them, so a tag is unused only when none of them uses it.
   */
  wholeTemplate?: { slide: number; slides: number };
}

export type ShapeTarget = { by: 'name'; name: string } | { by: 'id'; id: number };

export interface ShapeRequest {
  path: string;
  target: ShapeTarget;
  hidden: boolean | null;
  remove: boolean;
  settings: ShapeSettings | null;
  content: ShapeContent | null;
  /** The key the user gave the content under (an alias included), so errors name what was sent. */
  contentField: ContentField;
  /** `alt_text`: the shape's description (p:cNvPr/@descr) for screen readers; absent keeps the template's. */
  altText?: string;
  /** `alt_title`: the shape's title (p:cNvPr/@title); absent keeps the template's. */
  altTitle?: string;
}

export type ContentField = 'content' | 'text' | 'filename' | 'data_cells' | 'data';

/** Geometry already converted to EMU (integers); colours as upper-case `RRGGBB`. */
export interface ShapeSettings {
  left?: number;
  top?: number;
  width?: number;
  height?: number;
  fillColor?: string;
  chart?: ChartSettings;
}

export interface ChartSettings {
  title?: string;
  font?: string;
  fontSizePt?: number;
  showLegend?: boolean;
  legendPosition?: 'l' | 'r' | 'b' | 't' | 'tr' | 'none';
  legendFontColor?: string;
  legendBold?: boolean;
  showValueLabels?: boolean;
  /** An ST_DLblPos value (`bestFit`, `b`, `ctr`, `inBase`, `inEnd`, `l`, `outEnd`, `r`, `t`), mapped from the hosted API's names. */
  dataLabelPosition?: string;
  dataLabelFontSizePt?: number;
  dataLabelFont?: string;
  numberFormat?: string;
  categoryAxisTitle?: string;
  valueAxisTitle?: string;
}

/**
 * A bare string is ambiguous until the target shape is known: text for a text shape, a file name / URL /
 * data URI for a picture. The fillers resolve it against the shape's kind.
 */
export type ShapeContent =
  | { kind: 'string'; value: string }
  | TextContent
  | ListContent
  | PictureContent
  | TableContent
  | ChartContent;

/** An array of strings (or typed values, or runs): one text per SmartArt node, in its text pane's order. */
export interface ListContent {
  kind: 'list';
  items: TextContent[];
}

export interface TextContent {
  kind: 'text';
  /** false: a plain string; paragraph i keeps the template's paragraph i formatting. */
  fromRuns: boolean;
  paragraphs: Paragraph[];
}

export interface Paragraph {
  props: ParagraphProps;
  runs: Run[];
}

export interface Run {
  text: string;
  props: RunProps;
}

export type UnderlineStyle =
  | 'sng'
  | 'dbl'
  | 'heavy'
  | 'dotted'
  | 'dottedHeavy'
  | 'dash'
  | 'dashHeavy'
  | 'dashLongHeavy'
  | 'dotDash'
  | 'dotDashHeavy'
  | 'dotDotDashHeavy'
  | 'wavy'
  | 'wavyHeavy'
  | 'wavyDbl';

/** Values as DrawingML wants them: sizes in 1/100 pt, colours `RRGGBB`. */
export interface RunProps {
  font?: string;
  size?: number;
  bold?: boolean;
  italic?: boolean;
  underline?: UnderlineStyle;
  color?: string;
  highlight?: string;
  strike?: boolean;
  /** 1/1000 %: 30000 superscript, -25000 subscript. */
  baseline?: number;
  hyperlink?: Hyperlink;
}

/** A web or mail URL, or a jump to output slide `slide` (0-based). */
export type Hyperlink = string | { slide: number };

/** Where the payload links to an output slide, checked once the output's slides are known. */
export interface SlideLink {
  path: string;
  slide: number;
}

export interface ParagraphProps {
  align?: 'l' | 'ctr' | 'r' | 'just' | 'dist';
  /** EMU. */
  indent?: number;
  lineSpacing?: { unit: 'percent'; value: number } | { unit: 'points'; value: number };
  bullet?: boolean;
  bulletChar?: string;
  level?: number;
  /** 1/1000 % of the text size. */
  bulletSize?: number;
}

export interface PictureContent {
  kind: 'picture';
  /** File name of an uploaded part, http(s) URL or data URI. */
  source: string;
  fit: 'contain' | 'cover' | 'stretch';
}

export interface TableCell {
  /** null: leave the template's cell as it is. */
  text: TextContent | null;
  fillColor?: string;
  verticalAlign?: 't' | 'ctr' | 'b';
  runProps?: RunProps;
  paragraphProps?: ParagraphProps;
}

export interface TableContent {
  kind: 'table';
  rows: TableCell[][];
  /** What to do with rows that do not fit on the slide: warn (default), or continue on copies of the slide. */
  overflow: 'warn' | 'continue';
  /** Rows repeated at the top of every continuation slide; null: 1 when the table's first-row flag is set, else 0. */
  headerRows: number | null;
  /**
   * Cells a row does not list (a row shorter than the grid): keep the template's text, or clear them. null: keep,
   * with a warning naming them (a payload that says "keep" gets none).
   */
  unspecifiedCells: 'keep' | 'clear' | null;
}

export interface ChartSeries {
  name: string;
  values?: (number | null)[];
  x?: (number | null)[];
  y?: (number | null)[];
  size?: (number | null)[];
  /** The format code of the series' typed values, for its cache. */
  formatCode?: string;
}

export interface ChartContent {
  kind: 'chart';
  categories: string[];
  series: ChartSeries[];
  overlays?: string[][];
}
