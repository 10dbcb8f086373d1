/**
 * Stored templates (docs/http-api.md, "Stored templates"): `POST /v1.0/templates` (multipart: the template as
 * `file`, an optional `name`), `GET /v1.0/templates`, `GET /v1.0/templates/{id}`, `GET /v1.0/templates/{id}/file`
 * and `DELETE /v1.0/templates/{id}`. Another account's id answers exactly like an unknown one (404).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StoredTemplate } from '../../service/request-reading.js';
import { accountOf } from '../bearer-auth.js';
import { contentDisposition, PPTX_CONTENT_TYPE } from '../file-response.js';
import { readTemplateUpload } from '../forms/request-form.js';
import type { RouteContext } from '../route-context.js';

const CONFIG = { endpoint: 'templates', bearer: true, rateLimited: true, noStore: true } as const;

/** A stored template as the API gives it. */
export function templateBody(template: StoredTemplate): Record<string, unknown> {
  return {
    id: template.id,
    name: template.name,
    version: template.version,
    sha256: template.sha256,
    bytes: template.bytes,
    slides: template.slides,
    created_at: template.createdAt,
  };
}

function idOf(request: FastifyRequest): string {
  return (request.params as { id: string }).id;
}

export function registerTemplateRoutes(app: FastifyInstance, { service, limits }: RouteContext): void {
  app.post('/v1.0/templates', { config: CONFIG }, async (request, reply) => {
    const { template, created } = await service.templates.upload(
      accountOf(request),
      await readTemplateUpload(request, limits),
    );
    return reply.code(created ? 201 : 200).send(templateBody(template));
  });

  app.get('/v1.0/templates', { config: CONFIG }, async (request) => ({
    templates: (await service.templates.list(accountOf(request))).map(templateBody),
  }));

  app.get('/v1.0/templates/:id', { config: CONFIG }, async (request) => {
    const detail = await service.templates.get(accountOf(request), idOf(request));
    return {
      ...templateBody(detail),
      versions: detail.versions.map(templateBody),
      inspect: detail.inspect,
    };
  });

  app.get('/v1.0/templates/:id/file', { config: CONFIG }, async (request, reply) => {
    const file = await service.templates.download(accountOf(request), idOf(request));
    return reply
      .code(200)
      .headers({
        'content-type': PPTX_CONTENT_TYPE,
        'content-disposition': contentDisposition(file.fileName),
        'content-length': String(file.content.byteLength),
      })
      .send(file.content.stream());
  });

  app.delete('/v1.0/templates/:id', { config: CONFIG }, async (request) => {
    const { deletedVersions } = await service.templates.delete(accountOf(request), idOf(request));
    return { deleted_versions: deletedVersions };
  });
}
