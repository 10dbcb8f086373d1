/**
 * Endpoint 4 (job status) and endpoint 5 (the signed download). The link is built and verified by the service
 * (HMAC over path and expiry); this layer only refuses a second authentication mechanism, as the interface's
 * § Endpoints 5 demands, and decides which base URL a link may carry.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DOWNLOAD_PATH_PREFIX } from '../../service/deckforge-service.js';
import { ForbiddenDownloadError, InvalidInputError } from '../../service/errors.js';
import { contentDisposition, contentTypeOf } from '../file-response.js';
import { accountOf } from '../bearer-auth.js';
import type { HttpConfig } from '../http-config.js';
import type { RouteContext } from './route-context.js';

/** A Host header value we are willing to echo into a link: a name or bracketed IPv6 address, and a port. */
const HOST_HEADER = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

interface HostName {
  name: string;
  port: string | null;
}

/** `name`, `name:port`, `[v6]`, `[v6]:port` or a bare IPv6 address (no port), lower-cased, brackets dropped. */
function parseHostEntry(entry: string): HostName {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  if (bracketed) return { name: (bracketed[1] ?? '').toLowerCase(), port: bracketed[2] ?? null };
  const colon = entry.indexOf(':');
  if (colon < 0 || entry.indexOf(':', colon + 1) >= 0) return { name: entry.toLowerCase(), port: null };
  return { name: entry.slice(0, colon).toLowerCase(), port: entry.slice(colon + 1) };
}

/** Whether a Host header value names an entry of DECKFORGE_TRUSTED_HOSTS (a bare entry allows any port). */
export function isTrustedHost(trusted: readonly string[], host: string): boolean {
  if (!HOST_HEADER.test(host)) return false;
  const asked = parseHostEntry(host);
  return trusted.some((entry) => {
    const allowed = parseHostEntry(entry);
    return allowed.name === asked.name && (allowed.port === null || allowed.port === asked.port);
  });
}

/**
 * The base of a download link: DECKFORGE_PUBLIC_URL when set; otherwise the request's own origin, but only
 * when its Host is one the operator trusts, so a forged Host header cannot put another domain into `file_url`.
 */
export function linkBase(request: FastifyRequest, config: HttpConfig): () => string {
  return () => {
    if (config.publicBaseUrl !== null) return config.publicBaseUrl.replace(/\/+$/, '');
    if (!isTrustedHost(config.trustedHosts, request.host)) {
      throw new InvalidInputError(
        `the Host header "${request.host}" is not a name this server builds download links for: the operator ` +
          'sets DECKFORGE_PUBLIC_URL, or lists the name in DECKFORGE_TRUSTED_HOSTS',
      );
    }
    return `${request.protocol}://${request.host}`;
  };
}

/** The link base for a webhook event of this request's job; null when the Host is not one links are made for. */
export function trustedLinkBase(request: FastifyRequest, config: HttpConfig): string | null {
  try {
    return linkBase(request, config)();
  } catch {
    return null;
  }
}

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
