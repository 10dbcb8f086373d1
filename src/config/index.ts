export { loadConfig, configWith } from './config.js';
export type { Config, LogLevel, RequestLimits } from './config.js';
export { ConfigError } from './config-error.js';
export { BUILT_IN_PLANS, findPlan, parsePlanCatalog, loadPlanCatalog } from './plans.js';
export type { Plan, PlanCatalog } from './plans.js';
export type { MailSettings } from './mail-settings.js';
export type { DatabaseSettings } from './database-settings.js';
export { redactedDatabaseUrl } from './database-settings.js';
