/**
 * Limits that bound a step of a request before it costs anything (docs/security.md, `jsonData` built to hurt):
 * a hostile value is a quick 400 in shape A naming its field, whichever endpoint it comes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smartArtDeck } from '../support/decks/smartart-deck.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.signUp({ plan: 'Enterprise' })).token;
  // The first refusal loads the routes' code (about 0.7 s): paid here, not by the requests measured.
  for (const path of ENDPOINTS)
    await refusal(path, { presentation: { template: 't.pptx', slides: [] } }, smartArtDeck());
});
afterAll(async () => server.close());

const ENDPOINTS = ['/v1.0/generator/create', '/v2.0/generator/create-async'];
/** Well under a second: the refusal reads the value's length, nothing more (the bad cases took 2 s and 111 s). */
const QUICK_MS = 1000;

async function refusal(path: string, jsonData: unknown, template: Uint8Array): Promise<[string, number]> {
  const started = performance.now();
  const response = await fetch(`${server.base}${path}`, {
    method: 'POST',
    headers: bearer(token),
    body: uploadForm(jsonData, [{ name: 't.pptx', bytes: template }]),
  });
  const body = (await response.json()) as { statusCode: number; message: string; details: string };
  const elapsed = performance.now() - started;
  expect(response.status).toBe(400);
  expect([body.statusCode, body.message]).toEqual([400, 'Invalid input parameters']);
  return [body.details, elapsed];
}

describe('bounded before any work', () => {
  it('a locale of 200 000 private-use subtags (1.8 MB, valid BCP 47) is a quick 400 naming presentation.locale', async () => {
    const locale = `en-x-${Array.from({ length: 200_000 }, () => 'abcdefgh').join('-')}`;
    for (const path of ENDPOINTS) {
      const [details, elapsed] = await refusal(
        path,
        { presentation: { template: 't.pptx', locale, slides: [{ slide_index: 0 }] } },
        smartArtDeck(),
      );
      expect(details).toBe(
        'presentation.locale: expected a BCP 47 language tag of at most 100 characters ("en-US", "de-DE"), got 1800004 characters',
      );
      expect(elapsed).toBeLessThan(QUICK_MS);
    }
  });

  it('a SmartArt given 100 000 texts is a quick 400 naming the content', async () => {
    const content = Array.from({ length: 100_000 }, (_, i) => `Node ${i + 1}`);
    for (const path of ENDPOINTS) {
      const [details, elapsed] = await refusal(
        path,
        {
          presentation: {
            template: 't.pptx',
            slides: [{ slide_index: 0, shapes: [{ name: 'Diagram 1', content }] }],
          },
        },
        smartArtDeck(),
      );
      expect(details).toBe(
        'presentation.slides[0].shapes[0].content: 100000 texts is more than a SmartArt takes (at most 1000); ' +
          'split them over several graphics or slides',
      );
      expect(elapsed).toBeLessThan(QUICK_MS);
    }
  });
});
