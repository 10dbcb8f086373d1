/**
 * The `components.schemas` of the OpenAPI document: the response bodies of the service interface, and the
 * jsonData schema taken from the engine (payload/parse-payload.ts) so that docs and validation cannot drift. The
 * payload's named parts (Presentation, Slide, Shape, …) are hoisted beside the others, so every reference is a
 * plain `#/components/schemas/…` that any OpenAPI tool resolves.
 */
import { payloadJsonSchemaParts } from '../../engine/index.js';
import { INSPECT_SCHEMAS } from './openapi-inspect-schemas.js';
import { PREVIEW_STATUS_FIELDS } from './openapi-previews.js';

const payload = payloadJsonSchemaParts('#/components/schemas/');

const ref = (name: string): Record<string, string> => ({ $ref: `#/components/schemas/${name}` });

/** The status body's fields, shared by the status response and the webhook event. */
const JOB_STATUS_FIELDS = {
  status: { enum: ['QUEUED', 'PROCESSING', 'SUCCEEDED', 'FAILED'] },
  error_message: { type: ['string', 'null'] },
  file_url: { type: ['string', 'null'], format: 'uri' },
  warnings: {
    type: 'array',
    description: 'The first 300 warnings of the job; warning_count says how many there were.',
    maxItems: 300,
    items: {
      type: 'object',
      required: ['path', 'message'],
      properties: {
        path: { type: 'string' },
        message: { type: 'string' },
        // docs/payload.md, Accessibility: the accessibility report's warnings carry one.
        code: { type: 'string' },
      },
    },
  },
  warning_count: {
    type: 'integer',
    minimum: 0,
    description:
      'How many warnings the job had in all, those past the first 300 included (MAX_JOB_WARNINGS).',
  },
};

const RESPONSE_SCHEMAS: Record<string, unknown> = {
  TokenRequest: {
    type: 'object',
    required: ['username', 'password', 'key'],
    properties: {
      username: { type: 'string', format: 'email' },
      password: { type: 'string' },
      key: { type: 'string' },
    },
  },
  TokenResponse: {
    type: 'object',
    properties: {
      isSuccess: { const: true },
      Message: { type: 'null' },
      Result: {
        type: 'object',
        properties: {
          Access_Token: { type: 'string' },
          Username: { type: 'string' },
          hasSubscription: { type: 'boolean' },
        },
      },
    },
  },
  TokenError: {
    type: 'object',
    properties: {
      isSuccess: { const: false },
      Message: { type: 'string' },
      Result: { type: 'object', maxProperties: 0 },
    },
  },
  InvalidInputError: {
    type: 'object',
    properties: {
      statusCode: { const: 400 },
      message: { const: 'Invalid input parameters' },
      details: { type: 'string' },
    },
  },
  ClientError: {
    type: 'object',
    properties: { statusCode: { type: 'integer' }, message: { type: 'string' }, detail: { type: 'string' } },
  },
  ServerError: {
    type: 'object',
    properties: { statusCode: { const: 500 }, title: { const: 'Error' }, detail: { type: 'string' } },
  },
  JobSubmission: {
    type: 'object',
    required: ['job_id', 'status'],
    properties: { job_id: { type: 'string' }, status: { const: 'QUEUED' } },
  },
  JobStatus: {
    type: 'object',
    required: ['status', 'error_message', 'file_url', 'warnings', 'warning_count'],
    properties: {
      ...JOB_STATUS_FIELDS,
      ...PREVIEW_STATUS_FIELDS,
      progress: {
        description:
          'While PROCESSING: how far the job is (null before its first report, and in every other state).',
        oneOf: [
          { type: 'null' },
          {
            type: 'object',
            required: ['slides_done', 'slides_total', 'pages_rendered'],
            properties: {
              slides_done: { type: 'integer', description: "The payload's slide entries written so far." },
              slides_total: { type: 'integer', description: "The payload's slide entries." },
              pages_rendered: {
                type: ['integer', 'null'],
                description:
                  "Of a job that renders: the PDF's pages once LibreOffice has converted the deck, or with previews " +
                  'the slide images drawn so far (0 when converted, then in steps of ten); null before that.',
              },
            },
          },
        ],
      },
      webhook: {
        ...ref('WebhookDelivery'),
        description: 'Only on a job submitted with a callback_url: how its delivery went so far.',
      },
    },
  },
  WebhookDelivery: {
    type: 'object',
    required: ['url', 'state', 'attempts', 'last_status', 'last_error'],
    properties: {
      url: { type: 'string', format: 'uri' },
      state: {
        enum: ['WAITING', 'DELIVERING', 'DELIVERED', 'GAVE_UP'],
        description:
          'WAITING until the job ends; DELIVERING while attempts go on; DELIVERED on a 2xx; GAVE_UP past the retry window.',
      },
      attempts: { type: 'integer' },
      last_status: {
        type: ['integer', 'null'],
        description: "The receiver's last HTTP status; null if none.",
      },
      last_error: { type: ['string', 'null'], description: 'Why the last attempt failed, when it did.' },
    },
  },
  WebhookEvent: {
    type: 'object',
    description:
      'The body POSTed to callback_url when the job ends, signed in the Deckforge-Signature header (docs/http-api.md).',
    required: ['job_id', 'status', 'error_message', 'file_url', 'warnings', 'warning_count'],
    properties: { job_id: { type: 'string' }, ...JOB_STATUS_FIELDS, ...PREVIEW_STATUS_FIELDS },
  },
  UsageResponse: {
    type: 'object',
    properties: {
      result: {
        type: 'object',
        properties: {
          usedSlideCount: { type: 'integer' },
          plan: { type: 'string' },
          allowedSlideCount: { type: 'integer' },
          subscriptions: { type: 'array', items: { type: 'object' } },
          resetDate: { type: 'string', examples: ['21 December 2026'] },
          totalApiCallCount: { type: 'integer' },
          successfulApiCallCount: { type: 'integer' },
          failedApiCallCount: { type: 'integer' },
          previousMonthUsedSlideCount: { type: 'integer' },
          subscriptionStartDate: { type: 'string', format: 'date-time' },
        },
      },
      isSuccess: { type: 'boolean' },
      message: { type: ['string', 'null'] },
      fileName: { type: ['string', 'null'] },
      fileNameFullPath: { type: ['string', 'null'] },
      isValidJson: { type: 'boolean' },
      resultType: { type: 'integer' },
    },
  },
};

function combine(): Record<string, unknown> {
  const schemas: Record<string, unknown> = {
    JsonData: {
      ...payload.schema,
      description:
        'The presentation definition sent as the jsonData form field. Unknown keys are ignored with a warning; ' +
        'null on an optional field means "not given". Reference with examples: /docs/payload.',
    },
  };
  for (const [name, schema] of [
    ...Object.entries(payload.definitions),
    ...Object.entries(RESPONSE_SCHEMAS),
    ...Object.entries(INSPECT_SCHEMAS),
  ]) {
    if (name in schemas) throw new Error(`OpenAPI schema name "${name}" is used twice`);
    schemas[name] = schema;
  }
  return schemas;
}

export const OPENAPI_SCHEMAS: Record<string, unknown> = combine();
