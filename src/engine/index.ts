/**
 * The engine's public surface: bytes in, bytes out. No environment, no I/O, no logging, no module state.
 */
export { generate } from './generate.js';
export type { GenerateInput, GenerateResult } from './generate.js';
export { inspect } from './inspect.js';
export type { InspectResult, InspectedSlide, InspectedShape, InspectedLayout } from './inspect.js';
export {
  parsePayload,
  parsePayloadText,
  countRequestedSlides,
  payloadJsonSchema,
  payloadJsonSchemaParts,
} from './payload/parse-payload.js';
export type { ParsedPayload } from './payload/parse-payload.js';
export { TemplateCache } from './presentation/template-cache.js';
export { DEFAULT_LIMITS } from './package/limits.js';
export type { PackageLimits } from './package/limits.js';
export { EngineError } from './errors.js';
export type { EngineErrorCode, Warning } from './errors.js';
export type * from './payload/model.js';
