/** What every route module receives from the server: the service facade, the limits and the metrics. */
import type { DeckforgeService } from '../service/deckforge-service.js';
import type { ErrorMapperLimits } from './errors/error-mapper.js';
import type { HttpConfig } from './http-config.js';
import type { HttpMetrics } from './metrics.js';

export interface RouteContext {
  service: DeckforgeService;
  config: HttpConfig;
  limits: ErrorMapperLimits;
  metrics: HttpMetrics;
}
