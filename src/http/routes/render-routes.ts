/**
 * `POST /v1.0/render` (beyond the interface, issue 26): a .pptx made elsewhere in, its PDF (`format=pdf`, the
 * default) or a zip of one PNG per slide (`format=png`) out. It draws on the slide allowance like generation:
 * the deck's visible slides. A server without LibreOffice answers 400 saying so.
 */
import type { FastifyInstance } from 'fastify';
import { accountOf } from '../bearer-auth.js';
import { contentDisposition, contentTypeOf, warningHeaders } from '../file-response.js';
import { readRenderRequest } from '../request-form.js';
import type { RouteContext } from './route-context.js';

export function registerRenderRoutes(app: FastifyInstance, { service, limits }: RouteContext): void {
  app.post(
    '/v1.0/render',
    { config: { endpoint: 'render', bearer: true, rateLimited: true, drawsSlides: true, noStore: true } },
    async (request, reply) => {
      const upload = await readRenderRequest(request, limits);
      // The connection closing before the answer is sent means nobody will read it: the render stops.
      const gone = new AbortController();
      const onClose = (): void => {
        if (!reply.raw.writableEnded) gone.abort();
      };
      reply.raw.once('close', onClose);
      const started = process.hrtime.bigint();
      const rendered = await service
        .render(accountOf(request), { ...upload, signal: gone.signal })
        .finally(() => reply.raw.off('close', onClose));
      const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
      return reply
        .code(200)
        .headers({
          'content-type': contentTypeOf(rendered.format),
          'content-disposition': contentDisposition(rendered.fileName),
          'server-timing': `render;dur=${milliseconds.toFixed(1)}`,
          'content-length': String(rendered.content.byteLength),
          'x-page-count': String(rendered.pageCount),
          ...warningHeaders(rendered.warnings),
        })
        .send(rendered.content.stream());
    },
  );
}
