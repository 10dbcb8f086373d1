/**
 * Endpoint 4 (job status) and endpoint 5 (the signed download). The link is built and verified by the service
 * (HMAC over path and expiry); this layer only refuses a second authentication mechanism, as the interface's
 * § Endpoints 5 demands.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DOWNLOAD_PATH_PREFIX } from '../../service/deckforge-service.js';
import { ForbiddenDownloadError } from '../../service/errors.js';
import { contentDisposition, PPTX_CONTENT_TYPE } from '../file-response.js';
import { accountOf } from '../bearer-auth.js';
import type { RouteContext } from './route-context.js';

function baseUrl(request: FastifyRequest, configured: string | null): string {
  if (configured !== null) return configured.replace(/\/+$/, '');
  return `${request.protocol}://${request.host}`;
}

export function registerJobRoutes(app: FastifyInstance, { service, config }: RouteContext): void {
  app.get<{ Params: { jobId: string } }>(
    '/v2.0/jobs/:jobId/status',
    { config: { endpoint: 'job-status', bearer: true } },
    async (request) => {
      const status = await service.jobStatus(
        accountOf(request),
        request.params.jobId,
        baseUrl(request, config.publicBaseUrl),
      );
      return {
        status: status.status,
        error_message: status.errorMessage,
        file_url: status.fileUrl,
        warnings: status.warnings,
      };
    },
  );

  app.get(`${DOWNLOAD_PATH_PREFIX}*`, { config: { endpoint: 'download' } }, async (request, reply) => {
    if (request.headers.authorization !== undefined) {
      throw new ForbiddenDownloadError(
        'A pre-signed download link carries its own authorization: send the request without an Authorization header.',
      );
    }
    const download = await service.openDownload(request.url);
    return reply
      .code(200)
      .headers({
        'content-type': PPTX_CONTENT_TYPE,
        'content-disposition': contentDisposition(download.fileName),
        'cache-control': 'private, no-store',
      })
      .send(Buffer.from(download.bytes.buffer, download.bytes.byteOffset, download.bytes.byteLength));
  });
}
