/**
 * The OpenAPI pieces of the previews (docs/previews.md): the output fields of the generation bodies (also
 * accepted as query parameters), the render endpoint, and the content types a generated file may have.
 */
import {
  DEFAULT_PREVIEW_WIDTH,
  MAX_PREVIEW_WIDTH,
  MIN_PREVIEW_WIDTH,
} from '../../service/request-reading.js';
import { PDF_CONTENT_TYPE, PNG_CONTENT_TYPE, PPTX_CONTENT_TYPE, ZIP_CONTENT_TYPE } from '../file-response.js';

type Json = Record<string, unknown>;

const UNAVAILABLE =
  'A server without LibreOffice answers 400 (shape A) saying previews are unavailable on it, and uses no quota.';

const previewWidth: Json = {
  type: 'integer',
  minimum: MIN_PREVIEW_WIDTH,
  maximum: MAX_PREVIEW_WIDTH,
  default: DEFAULT_PREVIEW_WIDTH,
  description: 'Width in pixels of each slide image; the height follows the slide aspect ratio.',
};

function outputProperties(mode: 'sync' | 'async'): Json {
  if (mode === 'sync') {
    return {
      format: {
        enum: ['pptx', 'pdf'],
        default: 'pptx',
        description: `pdf: the deck rendered to PDF (application/pdf, named after resultFileName). ${UNAVAILABLE}`,
      },
    };
  }
  return {
    format: {
      enum: ['pptx', 'pdf', 'pptx+pdf'],
      default: 'pptx',
      description:
        "pdf: the job's result (file_url) is the PDF; pptx+pdf: file_url is the deck and pdf_url its PDF. " +
        UNAVAILABLE,
    },
    previews: {
      enum: ['png'],
      description: 'png: one image per slide as well; the status lists their links in preview_urls.',
    },
    preview_width: previewWidth,
  };
}

/** The query parameters that may carry the output fields instead of the body. */
export function outputParameters(mode: 'sync' | 'async'): Json[] {
  return Object.entries(outputProperties(mode)).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema,
    description: `Same as the body field ${name}; the two must not disagree.`,
  }));
}

/** A generation body with the output fields beside jsonData, in every body style. */
export function withOutputFields(body: Json, mode: 'sync' | 'async'): Json {
  const copy = structuredClone(body) as { content: Record<string, { schema: Json }> };
  const properties = outputProperties(mode);
  for (const [type, media] of Object.entries(copy.content)) {
    const schema = media.schema as { properties?: Json; oneOf?: Json[] };
    if (schema.properties) Object.assign(schema.properties, properties);
    if (type === 'application/json' && schema.oneOf) {
      const wrapped = schema.oneOf[1] as { properties: Json };
      Object.assign(wrapped.properties, properties);
    }
  }
  return copy;
}

const binary = { type: 'string', format: 'binary' };

/** What the synchronous generation may answer: the deck, or its PDF. */
export const GENERATED_FILE_CONTENT: Json = {
  [PPTX_CONTENT_TYPE]: { schema: binary },
  [PDF_CONTENT_TYPE]: { schema: binary },
};

/** What a signed link may serve: the deck, its PDF, a slide image. */
export const DOWNLOAD_CONTENT: Json = {
  ...GENERATED_FILE_CONTENT,
  [PNG_CONTENT_TYPE]: { schema: binary },
};

/** The status body's fields for previews (components.schemas.JobStatus). */
export const PREVIEW_STATUS_FIELDS: Json = {
  pdf_url: {
    type: ['string', 'null'],
    format: 'uri',
    description:
      'Only on a job submitted with format=pptx+pdf: the PDF, pre-signed like file_url (null until SUCCEEDED).',
  },
  preview_urls: {
    type: 'array',
    items: { type: 'string', format: 'uri' },
    description:
      'Only on a job submitted with previews=png: one pre-signed PNG per slide in order, fresh on each call ' +
      '([] until SUCCEEDED).',
  },
};

export function renderPath(responses: {
  errorA: Json;
  error401: Json;
  error429: Json;
  error500: Json;
}): Json {
  return {
    post: {
      operationId: 'renderPresentation',
      summary: 'Render a .pptx to PDF or slide images',
      description:
        'A deck made elsewhere in (multipart `files`), its PDF (format=pdf, the default) or a zip of ' +
        '`slide-1.png`, `slide-2.png`, … (format=png) out. The visible slides count against the allowance as ' +
        `generated slides do. X-Page-Count gives the pages; X-Generation-Warnings names substituted fonts. ${UNAVAILABLE}`,
      security: [{ bearerAuth: [] }],
      parameters: outputParameters('sync')
        .filter((p) => p.name === 'format')
        .map((p) => ({ ...p, schema: { enum: ['pdf', 'png'], default: 'pdf' } })),
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['files'],
              properties: {
                files: { ...binary, description: 'The .pptx to render (one file).' },
                format: { enum: ['pdf', 'png'], default: 'pdf' },
                preview_width: previewWidth,
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'The PDF, or the zip of slide images.',
          headers: {
            'Content-Disposition': { schema: { type: 'string' } },
            'X-Page-Count': { schema: { type: 'integer' } },
            'X-Generation-Warnings': { schema: { type: 'integer' } },
            'X-Generation-Warnings-Detail': { schema: { type: 'string' } },
          },
          content: { [PDF_CONTENT_TYPE]: { schema: binary }, [ZIP_CONTENT_TYPE]: { schema: binary } },
        },
        '400': responses.errorA,
        '401': responses.error401,
        '429': responses.error429,
        '500': responses.error500,
      },
    },
  };
}
