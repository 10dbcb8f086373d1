/**
 * The console's usage and jobs pages (console contract): `GET /console/api/usage` (the usage figures, this
 * period's API calls, the previous period, slides per UTC day), `GET /console/api/jobs` (recent first) and
 * `GET /console/api/jobs/:id`, with the same signed download link the status endpoint gives.
 */
import type { FastifyInstance } from 'fastify';
import { linkBase } from '../../http/link-base.js';
import type { ConsoleContext } from './console-context.js';
import { requireSession } from './console-session.js';

export function registerActivityRoutes(app: FastifyInstance, { service, config }: ConsoleContext): void {
  app.get('/api/usage', { config: { endpoint: 'usage', noStore: true } }, async (request) => {
    const { account } = requireSession(request);
    return service.usageDetail(account);
  });

  app.get('/api/jobs', { config: { endpoint: 'job-status', noStore: true } }, async (request) => {
    const { account } = requireSession(request);
    return { jobs: await service.listJobs(account, linkBase(request, config)) };
  });

  app.get<{ Params: { id: string } }>(
    '/api/jobs/:id',
    { config: { endpoint: 'job-status', noStore: true } },
    async (request) => {
      const { account } = requireSession(request);
      return service.jobSummary(account, request.params.id, linkBase(request, config));
    },
  );
}
