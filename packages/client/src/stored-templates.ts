/**
 * The client's calls about stored templates (docs/http-api.md, "Stored templates"): each takes the client's own
 * authenticated call, so tokens are renewed and errors raised as for every other call.
 */
import { toBlob, type FileSource } from './file-sources.js';
import type { StoredTemplate, StoredTemplateDetail } from './generated/api-types.js';

export type AuthenticatedCall = (
  path: string,
  options: { method: 'GET' | 'POST' | 'DELETE'; body?: () => FormData; headers?: Record<string, string> },
) => Promise<Response>;

const JSON_ACCEPT = { accept: 'application/json' };

function templatePath(id: string): string {
  return `/v1.0/templates/${encodeURIComponent(id)}`;
}

export async function uploadTemplate(
  call: AuthenticatedCall,
  fetchImpl: typeof fetch,
  template: FileSource,
  name: string,
): Promise<StoredTemplate> {
  const blob = await toBlob(template, fetchImpl);
  const response = await call('/v1.0/templates', {
    method: 'POST',
    headers: JSON_ACCEPT,
    body: () => {
      const form = new FormData();
      form.append('file', blob, name);
      form.append('name', name);
      return form;
    },
  });
  return (await response.json()) as StoredTemplate;
}

export async function listTemplates(call: AuthenticatedCall): Promise<StoredTemplate[]> {
  const response = await call('/v1.0/templates', { method: 'GET', headers: JSON_ACCEPT });
  return ((await response.json()) as { templates: StoredTemplate[] }).templates;
}

export async function getTemplate(call: AuthenticatedCall, id: string): Promise<StoredTemplateDetail> {
  const response = await call(templatePath(id), { method: 'GET', headers: JSON_ACCEPT });
  return (await response.json()) as StoredTemplateDetail;
}

export async function downloadTemplate(call: AuthenticatedCall, id: string): Promise<Uint8Array> {
  const response = await call(`${templatePath(id)}/file`, { method: 'GET' });
  return new Uint8Array(await response.arrayBuffer());
}

export async function deleteTemplate(call: AuthenticatedCall, id: string): Promise<number> {
  const response = await call(templatePath(id), { method: 'DELETE', headers: JSON_ACCEPT });
  return ((await response.json()) as { deleted_versions: number }).deleted_versions;
}
