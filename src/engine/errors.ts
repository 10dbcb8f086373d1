/**
 * Typed engine errors. Every error carries a stable `code` and, where it applies, the JSON path of the
 * payload field or the template part it is about, so a caller can tell a user exactly what to change.
 */
export type EngineErrorCode =
  | 'INVALID_PAYLOAD' // jsonData does not follow docs/payload.md
  | 'INVALID_TEMPLATE' // the template is not a usable presentation (corrupt, encrypted, not a zip, …)
  | 'UNSUPPORTED_TEMPLATE' // a valid package we deliberately refuse (ISO Strict)
  | 'LIMIT_EXCEEDED' // zip bomb, too many parts, too large
  | 'TOO_MANY_SLIDES' // the deck would have more slides than the limit given (all_slides expanded, tables continued)
  | 'UNSAFE_XML' // DOCTYPE, entity declarations
  | 'MISSING_FILE' // the payload names a file that was not uploaded
  | 'SLIDE_NOT_FOUND' // slide_index / slide_id out of range
  | 'SHAPE_NOT_FOUND' // strict shape validation
  | 'TAG_NOT_USED' // strict tag validation
  | 'INVALID_IMAGE' // a picture source that is no image, cut short, too large, or could not be fetched
  | 'INVALID_FONT' // a font file to embed that is no font, cut short, too large, or licensed against embedding
  | 'CONTENT_MISMATCH' // content of the wrong kind for the shape
  | 'INACCESSIBLE_OUTPUT'; // accessibility: "require" and the output lacks alt text, titles or header rows

export class EngineError extends Error {
  override readonly name: string = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    /** What is wrong, without the path; `message` is the path, then this. */
    readonly reason: string,
    /** JSON path (`presentation.slides[3].shapes[1].content`) or part name (`/ppt/slides/slide2.xml`). */
    readonly path: string | null = null,
  ) {
    super(path ? `${path}: ${reason}` : reason);
  }
}

/**
 * Warnings a client may act on by code (docs/payload.md, "Warnings"); the others carry none. The first four are
 * names that matched nothing: a key the contract does not know, a shape the slide does not have, a tag no slide
 * uses, a `{{tag}}` of the template left in the output for want of a value.
 */
export type WarningCode =
  | 'UNKNOWN_KEY'
  | 'SHAPE_NOT_FOUND'
  | 'TAG_NOT_USED'
  | 'TAG_UNFILLED'
  | 'ACCESSIBILITY_NO_ALT_TEXT'
  | 'ACCESSIBILITY_NO_SLIDE_TITLE'
  | 'ACCESSIBILITY_NO_TABLE_HEADER';

/** The codes of warnings about names in the payload, or tags in the template, that matched nothing. */
export const UNMATCHED_NAME_CODES: ReadonlySet<WarningCode> = new Set([
  'UNKNOWN_KEY',
  'SHAPE_NOT_FOUND',
  'TAG_NOT_USED',
  'TAG_UNFILLED',
]);

/** Something skipped or adjusted while generating; never fatal. */
export interface Warning {
  path: string;
  message: string;
  code?: WarningCode;
}
