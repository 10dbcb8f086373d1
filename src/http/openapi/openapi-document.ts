/**
 * The OpenAPI 3.1 description served at /openapi.json and rendered at /docs. It mirrors
 * docs/http-api.md; the jsonData schema is the engine's own (payload/parse-payload.ts), so the
 * published schema and the validation cannot drift apart.
 */
import {
  DOWNLOAD_CONTENT,
  GENERATED_FILE_CONTENT,
  outputParameters,
  renderPath,
  withOutputFields,
} from './openapi-previews.js';
import { OPENAPI_SCHEMAS } from './openapi-schemas.js';
import { TEMPLATE_SCHEMAS, templatePaths } from './openapi-templates.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});

const errorA = json(
  ref('InvalidInputError'),
  'Invalid input (shape A); `details` names the JSON path or limit.',
);
const error401 = json(ref('ClientError'), 'Bearer token missing, expired or invalid (shape B).');
const error404 = json(
  ref('ClientError'),
  'No job with that id for this account, or the job expired (shape B).',
);
const error429 = json(
  ref('ClientError'),
  'Monthly slide allowance or request rate exceeded (shape B); see Retry-After.',
);
const error409 = json(
  ref('ClientError'),
  'The Idempotency-Key was used for another request, or (synchronous) its deck cannot be sent again (shape B).',
);
const idempotencyKey: Json = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Up to 255 visible ASCII characters. Within 24 hours the same key and request get the first answer and ' +
    'one charge; keys are per account.',
  schema: { type: 'string', maxLength: 255 },
};
const error500 = json(ref('ServerError'), 'Server error (shape C); the detail says which operation failed.');

const generationBody: Json = {
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object',
        required: ['jsonData'],
        properties: {
          files: {
            description: 'The .pptx template(s) plus any image files; repeat the field for several files.',
            oneOf: [
              { type: 'string', format: 'binary' },
              { type: 'array', items: { type: 'string', format: 'binary' } },
            ],
          },
          jsonData: {
            type: 'string',
            description: 'The presentation definition, serialised (schema JsonData).',
          },
        },
      },
    },
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: ['jsonData'],
        description: 'Template-by-link variant: presentation.template is a URL and no file is attached.',
        properties: { jsonData: { type: 'string' } },
      },
    },
    'application/json': {
      schema: {
        description: 'Either {"jsonData": <string or object>} or the jsonData document itself.',
        oneOf: [ref('JsonData'), { type: 'object', required: ['jsonData'], properties: { jsonData: {} } }],
      },
    },
  },
};

const callbackUrl: Json = {
  type: 'string',
  format: 'uri',
  description:
    'Where to POST the signed job status when the job ends (docs/http-api.md, "Webhooks"); the account needs a ' +
    'webhook secret, and the address passes the template URL guard.',
};

/**
 * The body of `POST /v2.0/generator/create-async`: that of `POST /v1.0/generator/create`, plus the optional
 * callback_url beside jsonData.
 */
function withCallbackUrl(body: Json): Json {
  const copy = structuredClone(body) as { content: Record<string, { schema: Json }> };
  for (const [type, media] of Object.entries(copy.content)) {
    const schema = media.schema as { properties?: Json; oneOf?: Json[] };
    if (schema.properties) schema.properties.callback_url = callbackUrl;
    if (type === 'application/json' && schema.oneOf) {
      const wrapped = schema.oneOf[1] as { properties: Json };
      wrapped.properties.callback_url = callbackUrl;
    }
  }
  return copy;
}

const bearer = [{ bearerAuth: [] }];

const paths: Json = {
  '/v1.0/token/create': {
    post: {
      operationId: 'createToken',
      summary: 'Create a bearer token',
      description: 'Issues a token valid for 24 hours from the account e-mail, password and security key.',
      security: [],
      requestBody: {
        required: true,
        content: Object.fromEntries(
          ['multipart/form-data', 'application/x-www-form-urlencoded'].map((type) => [
            type,
            { schema: ref('TokenRequest') },
          ]),
        ),
      },
      responses: {
        '200': json(ref('TokenResponse'), 'The token (isSuccess true).'),
        '400': json(ref('TokenError'), 'A required form field is missing.'),
        '401': json(ref('TokenError'), 'The e-mail/password/key combination is invalid.'),
        '500': json(ref('TokenError'), 'Internal Server Error.'),
      },
    },
  },
  '/v1.0/generator/create': {
    post: {
      operationId: 'generatePresentation',
      parameters: [idempotencyKey, ...outputParameters('sync')],
      summary: 'Generate a presentation synchronously',
      description:
        'Returns the .pptx in the response body, or its PDF with format=pdf (docs/previews.md). Headers: Content-Disposition (attachment, resultFileName or ' +
        'else "<template>-generated"; ' +
        "RFC 6266 filename* for non-ASCII names), X-Slide-Count (the deck's slides), X-Generation-Warnings (count), X-Generation-Warnings-Detail " +
        '(JSON array of {path, message}, plus a code on those a client may act on, ASCII-escaped, cut to whole ' +
        'warnings past 4000 characters), X-Generation-Unmatched (one short line naming the shapes, keys and tags ' +
        'of the payload that matched nothing and the template tags left unfilled; absent when there are none).',
      security: bearer,
      requestBody: withOutputFields(generationBody, 'sync'),
      responses: {
        '200': {
          description: 'The generated presentation (or its PDF).',
          headers: {
            'Content-Disposition': { schema: { type: 'string' } },
            'X-Slide-Count': { schema: { type: 'integer' } },
            'X-Generation-Warnings': { schema: { type: 'integer' } },
            'X-Generation-Warnings-Detail': { schema: { type: 'string' } },
            'X-Generation-Unmatched': { schema: { type: 'string' } },
          },
          content: GENERATED_FILE_CONTENT,
        },
        '400': errorA,
        '401': error401,
        '409': error409,
        '429': error429,
        '500': error500,
      },
    },
  },
  '/v2.0/generator/create-async': {
    post: {
      operationId: 'submitGenerationJob',
      parameters: [idempotencyKey, ...outputParameters('async')],
      summary: 'Submit a generation job',
      description:
        'Accepts the same body as /v1.0/generator/create; template or JSON problems appear later as a FAILED job. ' +
        'format and previews ask for the PDF and slide images as well (docs/previews.md).',
      security: bearer,
      requestBody: withOutputFields(withCallbackUrl(generationBody), 'async'),
      responses: {
        '202': json(ref('JobSubmission'), 'The job was queued.'),
        '400': errorA,
        '401': error401,
        '409': error409,
        '429': error429,
        '500': error500,
      },
    },
  },
  '/v2.0/jobs/{jobId}/status': {
    get: {
      operationId: 'getJobStatus',
      summary: 'Read a job status',
      description: 'Each call on a SUCCEEDED job returns a fresh pre-signed link, valid 15 minutes.',
      security: bearer,
      parameters: [{ name: 'jobId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': json(ref('JobStatus'), 'The job status.'),
        '401': error401,
        '404': error404,
        '500': error500,
      },
    },
  },
  '/v2.0/files/{signedPath}': {
    get: {
      operationId: 'downloadJobResult',
      summary: 'Download a job result (pre-signed link)',
      description:
        'Use file_url exactly as the status response returned it. The link carries its own authorization: a ' +
        'request with an Authorization header is refused, as is an expired or altered link.',
      security: [],
      parameters: [{ name: 'signedPath', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': {
          description:
            'The presentation, named after resultFileName (default: "<template>-generated.pptx"); or its PDF, or ' +
            'a slide image, for the links pdf_url and preview_urls.',
          content: DOWNLOAD_CONTENT,
        },
        '403': json(ref('ClientError'), 'Expired or tampered link, or an Authorization header was sent.'),
        '404': json(ref('ClientError'), 'The file no longer exists (job expired).'),
      },
    },
  },
  '/v1.0/usage': {
    get: {
      operationId: 'getUsage',
      summary: 'Read plan and usage',
      security: bearer,
      responses: {
        '200': json(ref('UsageResponse'), 'Usage.'),
        '400': errorA,
        '401': error401,
        '429': error429,
        '500': error500,
      },
    },
  },
  '/v1/usage': {
    get: {
      operationId: 'getUsageV1',
      summary: 'Read plan and usage (alias of /v1.0/usage)',
      security: bearer,
      responses: {
        '200': json(ref('UsageResponse'), 'Usage.'),
        '401': error401,
        '429': error429,
        '500': error500,
      },
    },
  },
  '/v1.0/template/inspect': {
    post: {
      operationId: 'inspectTemplate',
      summary: 'Inspect a template',
      description:
        'Slides, layouts and every shape (name, id, kind, text, tags; for a picture its frame, for a table its ' +
        'grid, merges and first row, for a chart its types, series names, category count and workbook; for ' +
        'every shape its box on the slide in EMU): the ' +
        'output of `deckforge inspect --json`. ' +
        "Send the template as multipart `files`, or its URL (or a stored template's name or id) in a " +
        '`templateUrl` field.',
      security: bearer,
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: {
                files: { type: 'string', format: 'binary' },
                templateUrl: { type: 'string', format: 'uri' },
              },
            },
          },
          'application/x-www-form-urlencoded': {
            schema: { type: 'object', properties: { templateUrl: { type: 'string', format: 'uri' } } },
          },
        },
      },
      responses: {
        '200': json(ref('InspectResult'), 'The inspection result.'),
        '400': errorA,
        '401': error401,
        '429': error429,
        '500': error500,
      },
    },
  },
  ...templatePaths({ errorA, error401, error429, error500 }),
  '/v1.0/render': renderPath({ errorA, error401, error429, error500 }),
  '/healthz': {
    get: {
      operationId: 'getHealth',
      summary: 'Liveness of the service, its stores and its generation threads',
      security: [],
      responses: {
        '200': {
          description:
            'Healthy: `status` "ok", with the checks, the threads busy and idle, and `previews`: whether PDF and PNG previews can be made here (`available`, a `reason` when not, `isolated`: whether renderers run sandboxed, with an `isolationReason` when not, and `isolationPolicy`, the DECKFORGE_RENDER_ISOLATION in force (docs/security.md, "Rendering untrusted decks"), and the renderers configured, busy and waited for).',
        },
        '503': {
          description:
            '`status` "unavailable" (a store does not answer) or "degraded" (no generation thread has been free for 30 s).',
        },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'getMetrics',
      summary: 'Prometheus metrics',
      description:
        'Open, unless DECKFORGE_METRICS_TOKEN is set: then it wants `Authorization: Bearer <that token>`.',
      security: [],
      responses: { '200': { description: 'Prometheus text format.' }, '401': error401 },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1, JSON.' } },
    },
  },
  '/docs': {
    get: {
      operationId: 'getDocs',
      summary: 'This document as HTML',
      security: [],
      responses: { '200': { description: 'HTML page.' } },
    },
  },
};

export function buildOpenApiDocument(version: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Deckforge',
      version,
      description:
        'A .pptx template plus JSON in, a filled .pptx out: synchronously or as a job. Guides: /docs/payload ' +
        '(the jsonData reference with examples), /docs/http-api, /docs/previews (PDF and slide images), ' +
        '/docs/configuration, /docs/operations.',
    },
    // Relative to where this document is served: the server that answers /openapi.json is the API.
    servers: [{ url: '/', description: 'This Deckforge server' }],
    paths,
    components: {
      schemas: { ...OPENAPI_SCHEMAS, ...TEMPLATE_SCHEMAS },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
  };
}
