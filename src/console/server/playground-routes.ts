/**
 * The console's inspector and playground (console contract): `POST /console/api/inspect` (multipart
 * `template`, or JSON `{url}` fetched through the guarded fetcher), `POST /console/api/generate` (the .pptx)
 * and `POST /console/api/jobs` (202 `{jobId}`). Each reads its body with the API's own form reader and runs the
 * API's own use case for the signed-in account; api-call-accounting.ts counts and limits them as API calls.
 */
import type { FastifyInstance } from 'fastify';
import type { Account } from '../../service/deckforge-service.js';
import { readInspectSource } from '../../http/request-form.js';
import { sendGeneratedDeck, submitGenerationJob } from '../../http/generation-handlers.js';
import type { ConsoleContext } from './console-context.js';

export function registerPlaygroundRoutes(app: FastifyInstance, context: ConsoleContext): void {
  const generation = context;
  const accountOf = (request: { account: Account | null }): Account => {
    // Set by api-call-accounting.ts for every consoleApiCall route; its absence is a programming error.
    if (request.account === null) throw new Error('a console API call without its account');
    return request.account;
  };

  app.post(
    '/api/inspect',
    { config: { endpoint: 'inspect', consoleApiCall: true, rateLimited: true, noStore: true } },
    async (request) =>
      context.service.inspectTemplate(accountOf(request), await readInspectSource(request, context.limits)),
  );

  app.post(
    '/api/generate',
    {
      config: {
        endpoint: 'generate',
        consoleApiCall: true,
        rateLimited: true,
        drawsSlides: true,
        noStore: true,
      },
    },
    async (request, reply) => sendGeneratedDeck(request, reply, generation, accountOf(request)),
  );

  app.post(
    '/api/jobs',
    { config: { endpoint: 'create-async', consoleApiCall: true, rateLimited: true, drawsSlides: true } },
    async (request, reply) => {
      const { jobId, status } = await submitGenerationJob(request, generation, accountOf(request));
      return reply.code(202).send({ jobId, status });
    },
  );
}
