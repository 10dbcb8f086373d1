export { loadConfig, configWith } from './config.js';
export type { Config, LogLevel, RequestLimits } from './config.js';
export { ConfigError } from './config-error.js';
export { BUILT_IN_PLANS, findPlan, parsePlanCatalog, loadPlanCatalog } from './plans.js';
export type { Plan, PlanCatalog } from './plans.js';
export type { RedisSettings } from './redis-settings.js';
export type { S3Settings } from './s3-settings.js';
export { refuseHalfSharedStores, type StoreChoices } from './store-topology.js';
