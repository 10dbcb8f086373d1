/**
 * A deck with a warning list of any length is made and answered (docs/http-api.md, Generating and
 * Asynchronous): 200 000 accessibility findings come back as a count and a bounded detail header, never as an
 * internal error; a job's status and webhook carry its first 300 warnings and warning_count, the total.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undescribedPicturesDeck } from '../support/decks/accessibility-deck.js';
import { pollUntil, submitJob } from '../support/http/jobs-polling.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { uploadForm } from '../support/http/payloads.js';

let server: RunningServer;
let token: string;

beforeAll(async () => {
  // The webhook receiver listens on 127.0.0.1.
  server = await startServer({ overrides: { allowPrivateUrls: true } });
  const account = await server.signUp({ plan: 'Enterprise' });
  token = account.token;
  await server.runtime.admin.rotateWebhookSecret(account.email);
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

  it('a job of 1 000 warnings: its status and its webhook carry the first 300, and warning_count 1 000 and more', async () => {
    const bodies: string[] = [];
    let arrived: () => void = () => undefined;
    const delivered = new Promise<void>((resolve) => (arrived = resolve));
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
        arrived();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const form = uploadForm(
        {
          presentation: {
            template: 'pictures.pptx',
            accessibility: 'report',
            slides: Array.from({ length: 10 }, () => ({ slide_index: 0 })),
          },
        },
        [{ name: 'pictures.pptx', bytes: undescribedPicturesDeck(100) }],
      );
      form.append('callback_url', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
      const jobId = await submitJob(server.base, token, form);
      const { last: status } = await pollUntil(server.base, token, jobId, ['SUCCEEDED', 'FAILED']);
      expect(status.status).toBe('SUCCEEDED');
      expect(status.warnings).toHaveLength(300);
      expect(status.warning_count).toBeGreaterThanOrEqual(1_000);
      await delivered;
      const event = JSON.parse(bodies[0]!) as { warnings: unknown[]; warning_count: number };
      expect(event.warnings).toEqual(status.warnings);
      expect(event.warning_count).toBe(status.warning_count);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
