/**
 * What a transport reads a request with, beside the facade (deckforge-service.ts), so that every door (HTTP,
 * the console, MCP) checks and defaults the same fields the same way: the Idempotency-Key, the output format and
 * the previews' width, and the stored templates' types.
 */
export { checkedKey } from './generation/idempotency.js';
export {
  DEFAULT_PREVIEW_WIDTH,
  MAX_PREVIEW_WIDTH,
  MIN_PREVIEW_WIDTH,
  previewWidthOf,
  readOutputRequest,
  type OutputFields,
} from './generation/output-format.js';
export type { StoredTemplate, TemplateUpload } from './template-service.js';
