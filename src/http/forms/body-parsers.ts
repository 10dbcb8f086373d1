/**
 * The request bodies the server reads: multipart/form-data, application/x-www-form-urlencoded and
 * application/json (request-form.ts turns them into one form). Malformed JSON is told as json-syntax.ts tells
 * it wherever a payload is parsed. JSON nesting is limited on the text, before
 * anything parses it (docs/security.md): a value nested thousands deep would overflow JSON.stringify and structured
 * cloning later on.
 */
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { checkJsonLimits, describeMalformedJson, EngineError } from '../../engine/index.js';
import type { ErrorMapperLimits } from '../errors/error-mapper.js';

const MULTIPART_TEXT_FIELDS = 20;

export async function registerBodyParsers(app: FastifyInstance, limits: ErrorMapperLimits): Promise<void> {
  await app.register(formbody, { bodyLimit: limits.maxUploadBytes });
  await app.register(multipart, {
    limits: {
      fileSize: limits.maxUploadBytes,
      files: limits.maxFilesPerRequest,
      fieldSize: limits.maxUploadBytes,
      fields: MULTIPART_TEXT_FIELDS,
      parts: limits.maxFilesPerRequest + MULTIPART_TEXT_FIELDS,
    },
  });
  // Fastify's own JSON parser (prototype-poisoning checks included), after the nesting check.
  const parseJson = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: limits.maxUploadBytes },
    (request, body, done) => {
      const text = body as string; // parseAs: 'string'
      try {
        checkJsonLimits(text, 'request body');
      } catch (error) {
        done(error as Error, undefined);
        return;
      }
      // Malformed JSON in the words every other parse uses (json-syntax.ts): line, column and what to change.
      parseJson(request, text, (error, json) => {
        if ((error as { code?: string } | null)?.code === 'FST_ERR_CTP_INVALID_JSON_BODY')
          done(new EngineError('INVALID_PAYLOAD', describeMalformedJson(text), 'request body'), undefined);
        else done(error, json);
      });
    },
  );
}
