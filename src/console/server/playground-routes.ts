/**
 * The console's inspector and playground (console contract): `POST /console/api/inspect` (multipart
 * `template`, or JSON `{url}` fetched through the guarded fetcher), `POST /console/api/slide-pictures` (the same
 * body: a PNG of each visible slide, charged as `POST /v1.0/render` is), `POST /console/api/generate` (the .pptx)
 * and `POST /console/api/jobs` (202 `{jobId}`). Each reads its body with the API's own form reader and runs the
 * API's own use case for the signed-in account; api-call-accounting.ts counts and limits them as API calls.
 * `GET /console/api/previews` says whether this server can draw slide pictures, and why not.
 */
import type { FastifyInstance } from 'fastify';
import type { Account } from '../../service/deckforge-service.js';
import { readInspectSource } from '../../http/forms/request-form.js';
import { sendGeneratedDeck, submitGenerationJob } from '../../http/generation-handlers.js';
import { whileClientWaits } from '../../http/while-client-waits.js';
import type { ConsoleContext } from './console-context.js';
import { requireSession } from './console-session.js';

/** Pixels across a slide picture: sharp in an inspector column on a high-density screen, small enough to send. */
export const SLIDE_PICTURE_WIDTH = 960;

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

  app.get('/api/previews', { config: { endpoint: 'console', noStore: true } }, async (request) => {
    requireSession(request);
    return context.service.previewsStatus();
  });

  app.post(
    '/api/slide-pictures',
    {
      config: {
        endpoint: 'render',
        consoleApiCall: true,
        rateLimited: true,
        drawsSlides: true,
        noStore: true,
      },
    },
    async (request, reply) => {
      const source = await readInspectSource(request, context.limits);
      const { result } = await whileClientWaits(reply, (signal) =>
        context.service.slidePictures(accountOf(request), source, { width: SLIDE_PICTURE_WIDTH, signal }),
      );
      return {
        width: SLIDE_PICTURE_WIDTH,
        slides: result.slides.map(({ index, png }) => ({ index, png: Buffer.from(png).toString('base64') })),
        warnings: result.warnings,
      };
    },
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
