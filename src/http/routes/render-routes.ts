/**
 * `POST /v1.0/render` (beyond the interface; docs/previews.md): a .pptx made elsewhere in, its PDF (`format=pdf`, the
 * default) or a zip of one PNG per slide (`format=png`) out. It draws on the slide allowance like generation:
 * the deck's visible slides. A server without LibreOffice answers 400 saying so.
 */
import type { FastifyInstance } from 'fastify';
import { accountOf } from '../bearer-auth.js';
import { contentDisposition, contentTypeOf, warningHeaders } from '../file-response.js';
import { readRenderRequest } from '../forms/request-form.js';
import { whileClientWaits } from '../while-client-waits.js';
import type { RouteContext } from '../route-context.js';

export function registerRenderRoutes(app: FastifyInstance, { service, limits }: RouteContext): void {
  app.post(
    '/v1.0/render',
    { config: { endpoint: 'render', bearer: true, rateLimited: true, drawsSlides: true, noStore: true } },
    async (request, reply) => {
      const upload = await readRenderRequest(request, limits);
      const { result: rendered, milliseconds } = await whileClientWaits(reply, (signal) =>
        service.render(accountOf(request), { ...upload, signal }),
      );
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
