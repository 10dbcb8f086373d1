export { loadConfig, configWith } from './config.js';
export type { Config, LogLevel, RequestLimits } from './config.js';
export { ConfigError } from './config-error.js';
export { BUILT_IN_PLANS, findPlan, parsePlanCatalog, loadPlanCatalog } from './plans.js';
export type { Plan, PlanCatalog } from './plans.js';
export type { RenderSettings } from './render-settings.js';
