/**
 * The engine's public surface: bytes in, bytes out. No environment, no I/O, no logging, no module state.
 */
export { checkPayload, generate } from './generate.js';
export type { GenerateInput, GenerateResult, GenerateSummary } from './generate.js';
export type { ByteSink } from './package/zip-writer.js';
/** A plain zip of files (the slide images of a render): the engine's writer, the package's only zip code. */
export { writeZip } from './package/zip.js';
export { readZipEntries } from './package/zip-entries.js';
export { inspect } from './inspect.js';
export { SHAPE_KIND_NAMES, type ShapeKind } from './shapes/shape-kinds.js';
export { requestedFonts } from './render-safe/requested-fonts.js';
export type {
  InspectResult,
  InspectedSlide,
  InspectedShape,
  InspectedLayout,
  InspectedMaster,
  PictureFrame,
} from './inspect.js';
export type { InspectedTable } from './tables/describe-table.js';
export type { TextCapacity } from './text/text-capacity.js';
/** How the text capacity counts a character: wide East Asian ones take two narrow places. */
export { isWideCodePoint } from './text/wide-characters.js';
export type { Merge } from './tables/merges.js';
export {
  parsePayload,
  parsePayloadText,
  payloadJsonSchema,
  payloadJsonSchemaParts,
} from './payload/parse-payload.js';
export type { ParsedPayload } from './payload/parse-payload.js';
export { payloadOutline } from './payload/payload-outline.js';
export { payloadFacts, urlsToFetch, usedTemplates } from './payload/payload-facts.js';
export type { PayloadFacts, WantedUrl } from './payload/payload-facts.js';
export { countRequestedSlides } from './slides/slide-entries.js';
export {
  checkJsonLimits,
  describeMalformedJson,
  MAX_JSON_DEPTH,
  MAX_JSON_PIECES,
  parseJsonText,
} from './payload/json-syntax.js';
export { TemplateCache } from './presentation/template-cache.js';
export { DEFAULT_LIMITS } from './package/limits.js';
export type { PackageLimits } from './package/limits.js';
export { EngineError } from './errors.js';
export { slideCountText } from './slides/slide-count-text.js';
/** "Did you mean …?" for misspelt names, also of form fields and options outside the payload. */
export { closestName, closestNames, didYouMean } from './names/closest-name.js';
export type { EngineErrorCode, Warning, WarningCode } from './errors.js';
export { UNMATCHED_NAME_CODES } from './errors.js';
export type * from './payload/model.js';
export { assessImage, DEFAULT_IMAGE_LIMITS, formatName, isRefusal } from './pictures/prepared-image.js';
export type {
  ImageAssessment,
  ImageLimits,
  ImageOutcome,
  ImageRefusal,
  PreparedImage,
  StoredImageType,
} from './pictures/prepared-image.js';
export type { ImageFormat, ImageHeader } from './pictures/image-header.js';
export { isDataUri, sourceBytes, sourceLabel } from './pictures/picture-sources.js';
export { isHttpUrl, pictureSourceUses } from './payload/picture-source-uses.js';
export type { PictureSourceUse } from './payload/picture-source-uses.js';
export { makeSvgSafe, SVG_RENDITION_LONG_SIDE } from './pictures/svg-safety.js';
export type { SafeSvg } from './pictures/svg-safety.js';
export { renderSafeCopy } from './render-safe/render-safe-copy.js';
export type { RenderSafeCopy } from './render-safe/render-safe-copy.js';
export type { RendererFont } from './render-safe/embedded-font-files.js';
