/**
 * A deck with a warning list of any length is made and answered (docs/http-api.md, Generating): 200 000
 * accessibility findings come back as a count and a bounded detail header, never as an internal error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undescribedPicturesDeck } from '../support/decks/accessibility-deck.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = (await server.signUp({ plan: 'Enterprise' })).token;
});
afterAll(async () => server.close());

describe('warnings without end', () => {
  it('1 000 copies of a slide of 200 undescribed pictures: the deck, with 200 000 warnings counted in a header of bounded size', async () => {
    const jsonData = {
      presentation: {
        template: 'pictures.pptx',
        accessibility: 'report',
        slides: Array.from({ length: 1_000 }, () => ({ slide_index: 0 })),
      },
    };
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: bearer(token),
      body: uploadForm(jsonData, [{ name: 'pictures.pptx', bytes: undescribedPicturesDeck(200) }]),
    });
    const body = new Uint8Array(await response.arrayBuffer());
    expect(response.status, new TextDecoder().decode(body.subarray(0, 300))).toBe(200);
    expect(response.headers.get('x-slide-count')).toBe('1000');
    expect(Number(response.headers.get('x-generation-warnings'))).toBeGreaterThanOrEqual(200_000);
    const detail = response.headers.get('x-generation-warnings-detail') ?? '';
    expect(detail.length).toBeLessThan(16 * 1024);
    expect((JSON.parse(detail) as unknown[]).length).toBeGreaterThan(0);
  });
});
