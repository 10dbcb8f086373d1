/** What the console's route modules receive from the plugin. */
import type { DeckforgeService } from '../../service/deckforge-service.js';
import type { ConsoleService } from '../../service/console-service.js';
import type { ErrorMapperLimits } from '../../http/errors/error-mapper.js';
import type { HttpConfig } from '../../http/http-config.js';
import type { HttpMetrics } from '../../http/metrics.js';

export interface ConsoleContext {
  service: DeckforgeService;
  console: ConsoleService;
  config: HttpConfig;
  limits: ErrorMapperLimits;
  /** The playground's generations count in /metrics like the API's. */
  metrics: HttpMetrics;
}
