export { createRuntime, openAccountAdmin } from './create-runtime.js';
export type { Runtime, RuntimeOptions } from './create-runtime.js';
export { createLogger } from './logger.js';
export { isStoreNotReady } from './open-stores.js';
