/**
 * The generation endpoints (docs/http-api.md "Generating"): synchronous generation (the .pptx, or its PDF
 * with format=pdf, in the response) and job submission (202 with the job id). Both read the same body
 * (request-form.ts) and draw on the same allowance inside the service.
 */
import type { FastifyInstance } from 'fastify';
import { accountOf } from '../bearer-auth.js';
import { sendGeneratedDeck, submitGenerationJob } from '../generation-handlers.js';
import type { RouteContext } from '../route-context.js';

export function registerGeneratorRoutes(app: FastifyInstance, ctx: RouteContext): void {
  app.post(
    '/v1.0/generator/create',
    { config: { endpoint: 'generate', bearer: true, rateLimited: true, drawsSlides: true, noStore: true } },
    async (request, reply) => sendGeneratedDeck(request, reply, ctx, accountOf(request)),
  );

  app.post(
    '/v2.0/generator/create-async',
    { config: { endpoint: 'create-async', bearer: true, rateLimited: true, drawsSlides: true } },
    async (request, reply) => {
      const { jobId, status } = await submitGenerationJob(request, ctx, accountOf(request));
      return reply.code(202).send({ job_id: jobId, status });
    },
  );
}
