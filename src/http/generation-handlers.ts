/**
 * Reading a generation request and answering it, for the API's generation routes and the console's playground
 * alike, so both read the same form and count the same way (docs/http-api.md, "Generating").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../service/deckforge-service.js';
import { InvalidInputError } from '../service/errors.js';
import { contentDisposition, contentTypeOf, warningHeaders } from './file-response.js';
import { trustedLinkBase } from './link-base.js';
import { idempotencyKeyOf, readGenerationRequest } from './forms/request-form.js';
import type { RouteContext } from './route-context.js';
import { whileClientWaits } from './while-client-waits.js';

type GenerationContext = Pick<RouteContext, 'service' | 'limits' | 'metrics' | 'config'>;

/**
 * `POST /v1.0/generator/create`'s work for `account`: reads the request's generation form, generates, and
 * streams the deck back. The console's playground answers through it too, so both read the same form and
 * count the same way.
 */
export async function sendGeneratedDeck(
  request: FastifyRequest,
  reply: FastifyReply,
  { service, limits, metrics }: GenerationContext,
  account: Account,
): Promise<FastifyReply> {
  const generationRequest = await readGenerationRequest(request, limits, idempotencyKeyOf(request), 'sync');
  if (generationRequest.callback) {
    throw new InvalidInputError(
      'callback_url: webhooks are sent for jobs of POST /v2.0/generator/create-async; this answer is the deck itself',
    );
  }
  const { result: deck, milliseconds } = await whileClientWaits(reply, (signal) =>
    service.generateNow(account, { ...generationRequest, signal }),
  );
  metrics.observeSyncGeneration(milliseconds / 1000, deck.slideCount);
  // Sent from the file the deck was generated into (a large deck never sits in this process's memory), or from
  // memory when it came back small.
  return reply
    .code(200)
    .headers({
      'content-type': contentTypeOf(deck.format),
      'content-disposition': contentDisposition(deck.fileName),
      // Lets a client (and bench/http) tell time in generation from time in transport.
      'server-timing': `generate;dur=${milliseconds.toFixed(1)}`,
      'content-length': String(deck.content.byteLength),
      // The deck's slides, continuation slides of long tables included, also when the body is its PDF.
      'x-slide-count': String(deck.slideCount),
      ...warningHeaders(deck.warnings),
    })
    .send(deck.content.held ?? deck.content.stream());
}

/**
 * `POST /v2.0/generator/create-async`'s work for `account`: reads the request's generation form and submits
 * the job.
 */
export async function submitGenerationJob(
  request: FastifyRequest,
  { service, limits, config }: GenerationContext,
  account: Account,
): Promise<{ jobId: string; status: 'QUEUED' }> {
  const generationRequest = await readGenerationRequest(request, limits, idempotencyKeyOf(request), 'async');
  if (generationRequest.callback) {
    // The event's file_url is built like the status endpoint's; a Host the operator does not trust gets none.
    generationRequest.callback.linkBase = trustedLinkBase(request, config);
  }
  return service.submitJob(account, generationRequest);
}
