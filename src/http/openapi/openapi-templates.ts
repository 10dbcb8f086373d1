/** The OpenAPI paths of stored templates (docs/http-api.md, "Stored templates"). */
import { PPTX_CONTENT_TYPE } from '../file-response.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});

const storedTemplateSchema: Json = {
  type: 'object',
  required: ['id', 'name', 'version', 'sha256', 'bytes', 'slides', 'created_at'],
  properties: {
    id: {
      type: 'string',
      pattern: '^tpl_[0-9a-f]{32}$',
      description: 'This version; usable as `template` in jsonData for exactly this version.',
    },
    name: { type: 'string', description: 'Usable as `template` in jsonData for the latest version.' },
    version: { type: 'integer', minimum: 1 },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    bytes: { type: 'integer', minimum: 1 },
    slides: { type: 'integer', minimum: 0 },
    created_at: { type: 'string', format: 'date-time' },
  },
};

/** The component schemas the paths below refer to. */
export const TEMPLATE_SCHEMAS: Json = {
  StoredTemplate: storedTemplateSchema,
  StoredTemplateDetail: {
    allOf: [
      ref('StoredTemplate'),
      {
        type: 'object',
        required: ['versions', 'inspect'],
        properties: {
          versions: { type: 'array', items: ref('StoredTemplate'), description: 'Newest first.' },
          inspect: ref('InspectResult'),
        },
      },
    ],
  },
};
const storedTemplate = ref('StoredTemplate');

const idParameter: Json = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'A stored template id (any version of the name).',
};

export interface TemplateErrorResponses {
  errorA: Json;
  error401: Json;
  error429: Json;
  error500: Json;
}

export function templatePaths(errors: TemplateErrorResponses): Json {
  const { errorA, error401, error429, error500 } = errors;
  const error404 = json(ref('ClientError'), 'No stored template with that id on this account (shape B).');
  const common = { '401': error401, '429': error429, '500': error500 };
  const bearer = [{ bearerAuth: [] }];
  return {
    '/v1.0/templates': {
      post: {
        operationId: 'uploadTemplate',
        summary: 'Store a template',
        description:
          'Stores the template for the account under `name` (the file name when absent): a new name is version 1, ' +
          'a stored name gets the next version; the same bytes as its latest version store nothing (200). ' +
          'Checked like an uploaded template (size, zip bombs, encryption) and counted against the plan: a 403 ' +
          'when it would take the account past its number of templates or megabytes.',
        security: bearer,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file'],
                properties: {
                  file: { type: 'string', format: 'binary' },
                  name: { type: 'string', maxLength: 255 },
                },
              },
            },
          },
        },
        responses: {
          '201': json(storedTemplate, 'Stored: a new name, or a new version of one.'),
          '200': json(
            storedTemplate,
            "The same bytes as the name's latest version: nothing stored, that version.",
          ),
          '400': errorA,
          '403': json(ref('ClientError'), "The plan's stored-template limit (shape B); the detail names it."),
          ...common,
        },
      },
      get: {
        operationId: 'listTemplates',
        summary: "The account's stored templates",
        description: 'The latest version of each name, by name.',
        security: bearer,
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['templates'],
              properties: { templates: { type: 'array', items: storedTemplate } },
            },
            'The templates.',
          ),
          ...common,
        },
      },
    },
    '/v1.0/templates/{id}': {
      get: {
        operationId: 'getTemplate',
        summary: 'A stored template, its versions and its inspection',
        security: bearer,
        parameters: [idParameter],
        responses: {
          '200': json(
            ref('StoredTemplateDetail'),
            'The version, every version of its name, and what POST /v1.0/template/inspect gives for it.',
          ),
          '404': error404,
          ...common,
        },
      },
      delete: {
        operationId: 'deleteTemplate',
        summary: 'Delete a stored template with all its versions',
        security: bearer,
        parameters: [idParameter],
        responses: {
          '200': json(
            {
              type: 'object',
              required: ['deleted_versions'],
              properties: { deleted_versions: { type: 'integer', minimum: 1 } },
            },
            'Deleted.',
          ),
          '404': error404,
          ...common,
        },
      },
    },
    '/v1.0/templates/{id}/file': {
      get: {
        operationId: 'downloadTemplate',
        summary: 'The bytes of a stored template version',
        security: bearer,
        parameters: [idParameter],
        responses: {
          '200': {
            description: 'The .pptx, named after the template.',
            content: { [PPTX_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } },
          },
          '404': error404,
          ...common,
        },
      },
    },
  };
}
