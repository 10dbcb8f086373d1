/**
 * Reads the three body styles the interface allows into one form: multipart/form-data (`files` + fields),
 * application/x-www-form-urlencoded (the template-by-link variant) and, beyond the interface, application/json.
 * Limits come from configuration and are answered as invalid input naming the limit (error-mapper.ts). A field
 * sent twice, or two files of one name, is refused rather than one silently picked (docs/security.md); so is a
 * multipart body the parser cannot read.
 */
import type { FastifyRequest } from 'fastify';
import { InvalidInputError } from '../../service/errors.js';
import type { GenerationRequest, UploadedFile } from '../../service/deckforge-service.js';
import {
  checkedKey,
  previewWidthOf,
  readOutputRequest,
  type OutputFields,
  type TemplateUpload,
} from '../../service/request-reading.js';
import { uploadLimitText, type ErrorMapperLimits } from '../errors/error-mapper.js';
import { checkGenerationFields, checkJsonBodyKeys } from './form-fields.js';

export interface ReceivedForm {
  /** Text fields (multipart or urlencoded); for a JSON body, its top-level string values. */
  fields: Record<string, string>;
  files: UploadedFile[];
  /** The parsed body when it was application/json, else null. */
  json: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function duplicateField(name: string): InvalidInputError {
  return new InvalidInputError(`${name}: the form field was sent more than once; send it once`);
}

function setField(fields: Record<string, string>, name: string, value: string): void {
  if (Object.hasOwn(fields, name)) throw duplicateField(name);
  fields[name] = value;
}

/** Errors of our own and Fastify's limit errors pass; anything else the multipart parser threw is malformed input. */
function multipartError(error: unknown): unknown {
  if (error instanceof InvalidInputError) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new InvalidInputError(`the multipart/form-data body is malformed: ${reason}`);
}

async function readMultipart(request: FastifyRequest, limits: ErrorMapperLimits): Promise<ReceivedForm> {
  try {
    return await readParts(request, limits);
  } catch (error) {
    throw multipartError(error);
  }
}

async function readParts(request: FastifyRequest, limits: ErrorMapperLimits): Promise<ReceivedForm> {
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  const fileNames = new Set<string>();
  let total = 0;
  for await (const part of request.parts()) {
    if (part.type === 'file' && part.fieldname === 'jsonData') {
      // `curl -F jsonData=@payload.json` sends the payload as a file part: it is still the jsonData field.
      setField(fields, 'jsonData', (await part.toBuffer()).toString('utf8'));
    } else if (part.type === 'file') {
      // toBuffer() throws FST_REQ_FILE_TOO_LARGE past limits.fileSize; the mapper names the limit.
      const bytes = await part.toBuffer();
      total += bytes.length;
      if (total > limits.maxUploadBytes) {
        throw new InvalidInputError(
          `uploaded files together exceed the upload size limit of ${uploadLimitText(limits)}`,
        );
      }
      // The payload names files by name: two of one name would leave it to chance which one it gets.
      if (fileNames.has(part.filename)) {
        throw new InvalidInputError(
          `files: two uploaded files are named "${part.filename}"; give each file its own name`,
        );
      }
      fileNames.add(part.filename);
      files.push({
        name: part.filename,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length),
      });
    } else {
      if (part.valueTruncated) {
        throw new InvalidInputError(
          `form field ${part.fieldname} exceeds the upload size limit of ${uploadLimitText(limits)}`,
        );
      }
      setField(fields, part.fieldname, String(part.value));
    }
  }
  return { fields, files, json: null };
}

/** Reads whatever body style arrived; an absent body is an empty form. */
export async function readForm(request: FastifyRequest, limits: ErrorMapperLimits): Promise<ReceivedForm> {
  if (request.isMultipart()) return readMultipart(request, limits);
  const body: unknown = request.body;
  const isJson = (request.headers['content-type'] ?? '').toLowerCase().includes('json');
  const fields: Record<string, string> = {};
  if (isRecord(body)) {
    for (const [key, value] of Object.entries(body)) {
      if (typeof value === 'string') fields[key] = value;
      // A urlencoded field given twice arrives as an array.
      else if (Array.isArray(value) && !isJson) throw duplicateField(key);
    }
  }
  return { fields, files: [], json: isJson ? body : null };
}

const OUTPUT_FIELDS = ['format', 'previews', 'preview_width'] as const;

/** An output field of a JSON body that is not a string: a number (`"preview_width": 800`) is taken as written. */
function jsonMember(form: ReceivedForm, name: string): string | undefined {
  if (!isRecord(form.json) || !(name in form.json)) return undefined;
  const value = form.json[name];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new InvalidInputError(
    `${name}: give it as a string (for example "pdf" or "png") or, for a width, a number`,
  );
}

/**
 * `format`, `previews` and `preview_width` (docs/previews.md): a body field or a query parameter (`?format=pdf`); the
 * two saying different things is refused rather than one silently picked.
 */
function outputFields(request: FastifyRequest, form: ReceivedForm): OutputFields {
  const query = isRecord(request.query) ? request.query : {};
  const fields: OutputFields = {};
  for (const name of OUTPUT_FIELDS) {
    const inQuery = query[name];
    if (Array.isArray(inQuery)) throw duplicateField(name);
    const inBody = form.fields[name] ?? jsonMember(form, name);
    if (typeof inQuery === 'string' && inBody !== undefined && inQuery !== inBody) {
      throw new InvalidInputError(
        `${name}: the query parameter says "${inQuery}" and the body field "${inBody}"; send it once`,
      );
    }
    const value = inBody ?? (typeof inQuery === 'string' ? inQuery : undefined);
    if (value !== undefined) fields[name] = value;
  }
  return fields;
}

/** What a generation request without the form is told: the form, and the curl line that sends it. */
const EXPECTED_FORM =
  'send files (the template, and any pictures) and jsonData (the payload) as multipart/form-data, as ' +
  '`curl -F files=@template.pptx -F jsonData=@payload.json …` does, or the payload alone as application/json ' +
  '(`-H "Content-Type: application/json" -d @payload.json`, the template then named by URL or stored)';

function looksLikeJson(fieldName: string): boolean {
  return /^\s*[[{]/.test(fieldName);
}

/**
 * The generation request of both generation endpoints (docs/http-api.md "Generating"). A JSON body is either
 * `{"jsonData": ...}` or the jsonData document itself (`{"presentation": {...}}`), since both are natural to
 * send; `callback_url` and the output fields may stand beside either.
 */
export async function readGenerationRequest(
  request: FastifyRequest,
  limits: ErrorMapperLimits,
  idempotencyKey: string | undefined,
  mode: 'sync' | 'async',
): Promise<GenerationRequest> {
  const keyed = idempotencyKey === undefined ? {} : { idempotencyKey };
  const form = await readForm(request, limits);
  if (form.json === null && !request.isMultipart() && Object.keys(form.fields).some(looksLikeJson)) {
    // `curl -d @payload.json` sends the payload as a urlencoded body: its whole text arrives as one field name.
    throw new InvalidInputError(
      `the body is JSON sent as ${request.headers['content-type'] ?? 'a form'} (curl -d without a Content-Type); ${EXPECTED_FORM}`,
    );
  }
  if (form.json === null || form.json === undefined) checkGenerationFields(Object.keys(form.fields));
  else if (isRecord(form.json)) checkJsonBodyKeys(Object.keys(form.json));
  const output = readOutputRequest(outputFields(request, form), mode);
  const callbackUrl = form.fields.callback_url;
  const callback = callbackUrl === undefined ? {} : { callback: { url: callbackUrl, linkBase: null } };
  const extra = { ...callback, ...keyed, output };
  if (form.json !== null && form.json !== undefined) {
    if (isRecord(form.json) && 'jsonData' in form.json)
      return { jsonData: form.json.jsonData, files: [], ...extra };
    // The jsonData document itself, with callback_url and the output fields beside `presentation`.
    const {
      callback_url: _callback,
      format: _format,
      previews: _previews,
      preview_width: _width,
      ...jsonData
    } = isRecord(form.json) ? form.json : { value: form.json };
    return { jsonData: isRecord(form.json) ? jsonData : form.json, files: [], ...extra };
  }
  const jsonData = form.fields.jsonData;
  if (jsonData === undefined) {
    throw new InvalidInputError(
      request.isMultipart()
        ? 'jsonData: required form field is missing'
        : `jsonData: required form field is missing; ${EXPECTED_FORM}`,
    );
  }
  return { jsonData, files: form.files, ...extra };
}

/** `POST /v1.0/render`: the uploaded deck (`files`), `format` (pdf, the default, or png) and `preview_width`. */
export async function readRenderRequest(
  request: FastifyRequest,
  limits: ErrorMapperLimits,
): Promise<{ files: UploadedFile[]; format: 'pdf' | 'png'; width: number }> {
  const form = await readForm(request, limits);
  const fields = outputFields(request, form);
  const format = (fields.format ?? 'pdf').trim().toLowerCase();
  if (format !== 'pdf' && format !== 'png') {
    throw new InvalidInputError(
      `format: "${fields.format}" is not a render format; use pdf (the deck as a PDF) or png (a zip of one image per slide)`,
    );
  }
  if (fields.previews !== undefined) {
    throw new InvalidInputError(
      'previews: a render asks with format=png for slide images; leave previews out',
    );
  }
  if (format === 'pdf' && fields.preview_width !== undefined) {
    throw new InvalidInputError('preview_width: it sets the width of slide images; send format=png with it');
  }
  return { files: form.files, format, width: previewWidthOf(fields.preview_width) };
}

/** The Idempotency-Key header of a generation request, checked (idempotency.ts); undefined when absent. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const header = request.headers['idempotency-key'];
  return checkedKey(Array.isArray(header) ? header.join(',') : header);
}

/**
 * The three credential fields of `POST /v1.0/token/create`; missing ones stay undefined for the service to
 * report.
 */
export async function readCredentials(
  request: FastifyRequest,
  limits: ErrorMapperLimits,
): Promise<{ username?: string; password?: string; key?: string }> {
  const { fields } = await readForm(request, limits);
  return { username: fields.username, password: fields.password, key: fields.key };
}

const TEMPLATE_URL_FIELDS = ['templateUrl', 'template_url', 'template', 'url'] as const;

/** POST /v1.0/template/inspect: uploaded `files`, or a template URL in one of a few natural field names. */
export async function readInspectSource(
  request: FastifyRequest,
  limits: ErrorMapperLimits,
): Promise<{ files: UploadedFile[]; templateUrl?: string }> {
  const form = await readForm(request, limits);
  const templateUrl = TEMPLATE_URL_FIELDS.map((name) => form.fields[name]).find(
    (value) => value !== undefined,
  );
  if (form.files.length === 0 && templateUrl === undefined) {
    throw new InvalidInputError(
      'files: upload a .pptx template, or send its address in the templateUrl field',
    );
  }
  return templateUrl === undefined ? { files: form.files } : { files: form.files, templateUrl };
}

/** The upload's body: multipart, the template as the one `file` part and an optional `name` field. */
export async function readTemplateUpload(
  request: FastifyRequest,
  limits: ErrorMapperLimits,
): Promise<TemplateUpload> {
  if (!request.isMultipart()) {
    throw new InvalidInputError('send multipart/form-data with the template as the "file" part');
  }
  const form = await readForm(request, limits);
  const [file, ...others] = form.files;
  if (!file) throw new InvalidInputError('file: upload the template as the "file" part');
  if (others.length > 0) throw new InvalidInputError('file: upload one template per request');
  const name = form.fields['name'];
  return name === undefined ? { file } : { file, name };
}
