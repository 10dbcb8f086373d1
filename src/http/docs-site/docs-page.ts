/**
 * /docs: the OpenAPI document rendered as one self-contained HTML page (no scripts, no CDN: the service must
 * document itself on a machine without internet access).
 */
import { FAVICON_LINK } from './favicon.js';
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

/** The page's one style sheet, inline; the Content-Security-Policy admits it by this hash and nothing else. */
const DOCS_STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
code,pre{font-family:ui-monospace,monospace;background:#f4f4f4;padding:0 .2em}pre{padding:.5em;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
.method{background:#2b5;color:#fff;padding:0 .4em;border-radius:3px}section{border-top:1px solid #ddd;margin-top:1.5em}
`;

/** CSP source expression of DOCS_STYLE (CSP Level 3 § 2.3.1, hash-source). */
export const DOCS_STYLE_SOURCE = `'sha256-${createHash('sha256').update(DOCS_STYLE).digest('base64')}'`;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One page with the docs' own style: no scripts, no external resources. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${FAVICON_LINK}
<style>${DOCS_STYLE}</style></head><body>
${body}
</body></html>`;
}

export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

function anchorFor(refValue: string): string {
  return `schema-${refValue.split('/').pop() ?? refValue}`;
}

function typeLabel(schema: Json): string {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? schema.$ref;
    return `<a href="#${escapeHtml(anchorFor(schema.$ref))}">${escapeHtml(name)}</a>`;
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ');
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type;
  const format = typeof schema.format === 'string' ? ` (${schema.format})` : '';
  if (type === 'array' && isRecord(schema.items)) return `array of ${typeLabel(schema.items)}`;
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options))
      return options
        .filter(isRecord)
        .map(typeLabel)
        .join(key === 'allOf' ? ' &amp; ' : ' | ');
  }
  return escapeHtml(`${type ?? 'any'}${format}`);
}

/** Nested property lists, depth-capped: the payload schema is deep and references itself. */
function renderSchema(schema: Json, depth = 0): string {
  const description =
    typeof schema.description === 'string' ? `<p>${escapeHtml(schema.description)}</p>` : '';
  const properties = isRecord(schema.properties) ? schema.properties : null;
  const items = schema.type === 'array' && isRecord(schema.items) ? schema.items : null;
  const nested = properties ?? (items && isRecord(items.properties) ? items.properties : null);
  if (nested === null || depth > 6) return description;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const rows = Object.entries(nested)
    .filter((entry): entry is [string, Json] => isRecord(entry[1]))
    .map(([name, child]) => {
      const mark = required.has(name) ? ' <em>required</em>' : '';
      return `<li><code>${escapeHtml(name)}</code>: ${typeLabel(child)}${mark}${renderSchema(child, depth + 1)}</li>`;
    });
  return `${description}<ul>${rows.join('')}</ul>`;
}

function renderOperation(path: string, method: string, operation: Json): string {
  const parts = [
    `<h3 id="${escapeHtml(`${method}-${path}`)}"><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
  ];
  if (typeof operation.summary === 'string')
    parts.push(`<p><strong>${escapeHtml(operation.summary)}</strong></p>`);
  if (typeof operation.description === 'string') parts.push(`<p>${escapeHtml(operation.description)}</p>`);
  const secured = Array.isArray(operation.security) && operation.security.length > 0;
  parts.push(`<p>Authorization: ${secured ? '<code>Bearer &lt;ACCESS_TOKEN&gt;</code>' : 'none'}</p>`);
  if (Array.isArray(operation.parameters) && operation.parameters.length > 0) {
    const items = operation.parameters
      .filter(isRecord)
      .map((p) => `<li><code>${escapeHtml(p.name)}</code> (${escapeHtml(p.in)})</li>`);
    parts.push(`<h4>Parameters</h4><ul>${items.join('')}</ul>`);
  }
  const body =
    isRecord(operation.requestBody) && isRecord(operation.requestBody.content)
      ? operation.requestBody.content
      : null;
  if (body) {
    parts.push('<h4>Request body</h4>');
    for (const [type, media] of Object.entries(body)) {
      const schema = isRecord(media) && isRecord(media.schema) ? media.schema : {};
      parts.push(`<h5><code>${escapeHtml(type)}</code></h5>${typeLabel(schema)}${renderSchema(schema)}`);
    }
  }
  if (isRecord(operation.responses)) {
    const rows = Object.entries(operation.responses)
      .filter((e): e is [string, Json] => isRecord(e[1]))
      .map(([status, response]) => {
        const content = isRecord(response.content) ? Object.entries(response.content) : [];
        const shapes = content.map(([type, media]) => {
          const schema = isRecord(media) && isRecord(media.schema) ? media.schema : {};
          return `<code>${escapeHtml(type)}</code> ${typeLabel(schema)}`;
        });
        return `<tr><td>${escapeHtml(status)}</td><td>${escapeHtml(response.description ?? '')}</td><td>${shapes.join('<br>')}</td></tr>`;
      });
    parts.push(
      `<h4>Responses</h4><table><tr><th>Status</th><th>Meaning</th><th>Body</th></tr>${rows.join('')}</table>`,
    );
  }
  return `<section>${parts.join('\n')}</section>`;
}

export function renderDocsPage(
  document: Json,
  guideLinks: readonly { name: string; title: string }[] = [],
): string {
  const info = isRecord(document.info) ? document.info : {};
  const paths = isRecord(document.paths) ? document.paths : {};
  const operations: string[] = [];
  const index: string[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!isRecord(operation)) continue;
      operations.push(renderOperation(path, method, operation));
      index.push(
        `<li><a href="#${escapeHtml(`${method}-${path}`)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`,
      );
    }
  }
  const components =
    isRecord(document.components) && isRecord(document.components.schemas) ? document.components.schemas : {};
  const schemas = Object.entries(components)
    .filter((e): e is [string, Json] => isRecord(e[1]))
    .map(
      ([name, schema]) =>
        `<section><h3 id="schema-${escapeHtml(name)}">${escapeHtml(name)}</h3>${renderSchema(schema)}<details><summary>JSON Schema</summary><pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre></details></section>`,
    );
  const guides = guideLinks.map(
    (g) => `<li><a href="/docs/${escapeHtml(g.name)}">${escapeHtml(g.title)}</a></li>`,
  );
  return htmlPage(
    `${String(info.title ?? 'API')} API`,
    `<h1>${escapeHtml(info.title ?? 'API')} <small>${escapeHtml(info.version ?? '')}</small></h1>
<p>${escapeHtml(info.description ?? '')}</p><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> · Sign in, tokens, usage and a playground: <a href="/console">the console</a></p>
<h2>Guides</h2><ul>${guides.join('')}</ul>
<h2>Endpoints</h2><ul>${index.join('')}</ul>
${operations.join('\n')}
<h2>Schemas</h2>
${schemas.join('\n')}`,
  );
}
