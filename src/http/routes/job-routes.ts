/**
 * The job status and the signed download (docs/http-api.md "Asynchronous: `POST
 * /v2.0/generator/create-async`, then poll"). The link is built and verified by the service (HMAC over path
 * and expiry); this layer only refuses a second authentication mechanism, as the interface demands of the
 * download, and decides which base URL a link may carry.
 */
import type { FastifyInstance } from 'fastify';
import { DOWNLOAD_PATH_PREFIX } from '../../service/deckforge-service.js';
import { ForbiddenDownloadError } from '../../service/errors.js';
import { contentDisposition, contentTypeOf } from '../file-response.js';
import { accountOf } from '../bearer-auth.js';
import { linkBase } from '../link-base.js';
import type { RouteContext } from '../route-context.js';

export function registerJobRoutes(app: FastifyInstance, { service, config }: RouteContext): void {
  app.get<{ Params: { jobId: string } }>(
    '/v2.0/jobs/:jobId/status',
    { config: { endpoint: 'job-status', bearer: true, noStore: true } },
    async (request) => {
      const status = await service.jobStatus(
        accountOf(request),
        request.params.jobId,
        linkBase(request, config),
      );
      return {
        status: status.status,
        error_message: status.errorMessage,
        file_url: status.fileUrl,
        ...(status.pdfUrl !== undefined ? { pdf_url: status.pdfUrl } : {}),
        ...(status.previewUrls !== undefined ? { preview_urls: status.previewUrls } : {}),
        warnings: status.warnings,
        warning_count: status.warningCount,
        progress: status.progress && {
          slides_done: status.progress.slidesDone,
          slides_total: status.progress.slidesTotal,
          pages_rendered: status.progress.pagesRendered,
        },
        ...(status.webhook ? { webhook: status.webhook } : {}),
      };
    },
  );

  app.get(
    `${DOWNLOAD_PATH_PREFIX}*`,
    { config: { endpoint: 'download', noStore: true } },
    async (request, reply) => {
      if (request.headers.authorization !== undefined) {
        throw new ForbiddenDownloadError(
          'A pre-signed download link carries its own authorization: send the request without an Authorization header.',
        );
      }
      const download = await service.openDownload(request.url);
      return reply
        .code(200)
        .headers({
          'content-type': contentTypeOf(download.fileName),
          'content-disposition': contentDisposition(download.fileName),
          'content-length': String(download.content.byteLength),
        })
        .send(download.content.stream());
    },
  );
}
