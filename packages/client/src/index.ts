/** `import { DeckforgeClient } from 'deckforge-client'` (or `'deckforge/client'` from the server package): the typed HTTP client and what its callers need. */
export {
  DeckforgeClient,
  type DeckforgeClientOptions,
  type NamedFiles,
  type RenderOptions,
  type SubmitOptions,
  type WaitOptions,
} from './deckforge-client.js';
export {
  DeckforgeError,
  DeckforgeJobError,
  DeckforgeNetworkError,
  DeckforgeTimeoutError,
  type ErrorBody,
  type Problem,
} from './client-errors.js';
export type { FileSource } from './file-sources.js';
export { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';
export type * from './generated/api-types.js';
