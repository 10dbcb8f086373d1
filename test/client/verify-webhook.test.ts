/**
 * verifyWebhook, the receiver's side of docs/http-api.md's signed webhooks, against signatures made by the
 * server's own signer (webhook-delivery.ts): a fresh event is accepted; one signed too long ago or too far in the
 * future is refused, with the default tolerance as with an explicit one; a signature changed at any of its hex
 * digits, a body changed anywhere, another timestamp or another secret are refused.
 */
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../../packages/client/src/index.js';
import { webhookSignature } from '../../src/service/jobs/webhook-delivery.js';

const SECRET = 'whsec_receiver-test-secret';
const BODY = JSON.stringify({ job_id: 'job-1', status: 'SUCCEEDED', error_message: null, warnings: [] });
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as Error).message;
}

describe('verifyWebhook: age of the signature', () => {
  it('accepts an event signed now, and one signed within the tolerance either side', async () => {
    for (const offset of [0, -290, 290]) {
      const header = webhookSignature(SECRET, nowSeconds() + offset, BODY);
      expect(await verifyWebhook(BODY, header, SECRET)).toEqual(JSON.parse(BODY));
    }
  });

  it('refuses an event replayed after the default 300 s, an hour, or days later', async () => {
    for (const age of [310, 3_600, 3 * 24 * 3_600]) {
      const header = webhookSignature(SECRET, nowSeconds() - age, BODY);
      expect(await refusal(verifyWebhook(BODY, header, SECRET))).toMatch(/beyond the 300 s tolerance/);
    }
  });

  it('refuses an event signed in the future beyond the tolerance', async () => {
    const header = webhookSignature(SECRET, nowSeconds() + 3_600, BODY);
    expect(await refusal(verifyWebhook(BODY, header, SECRET))).toMatch(/tolerance/);
  });

  it('applies an explicit tolerance in seconds', async () => {
    const header = webhookSignature(SECRET, nowSeconds() - 120, BODY);
    expect(await refusal(verifyWebhook(BODY, header, SECRET, 60))).toMatch(/beyond the 60 s tolerance/);
    expect(await verifyWebhook(BODY, header, SECRET, 600)).toMatchObject({ job_id: 'job-1' });
  });
});

describe('verifyWebhook: the signature itself', () => {
  it('refuses the signature changed at any one of its 64 hex digits', async () => {
    const header = webhookSignature(SECRET, nowSeconds(), BODY);
    const [stamp, mac] = header.split(',v1=') as [string, string];
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    for (let i = 0; i < mac.length; i += 1) {
      const digit = mac[i] === '0' ? '1' : '0';
      const forged = `${stamp},v1=${mac.slice(0, i)}${digit}${mac.slice(i + 1)}`;
      expect(await refusal(verifyWebhook(BODY, forged, SECRET)), `digit ${i}`).toMatch(/does not match/);
    }
  });

  it('refuses the body changed at its start, middle or end, or cut short', async () => {
    const header = webhookSignature(SECRET, nowSeconds(), BODY);
    const middle = Math.floor(BODY.length / 2);
    const changed = [
      ` ${BODY.slice(1)}`,
      `${BODY.slice(0, middle)}${BODY[middle] === 'x' ? 'y' : 'x'}${BODY.slice(middle + 1)}`,
      `${BODY} `,
      BODY.slice(0, -1),
    ];
    for (const body of changed) {
      expect(await refusal(verifyWebhook(body, header, SECRET))).toMatch(/does not match/);
    }
  });

  it('refuses the signature moved to another timestamp, made with another secret, or cut short', async () => {
    const stamp = nowSeconds();
    const mac = webhookSignature(SECRET, stamp, BODY).split(',v1=')[1] ?? '';
    expect(await refusal(verifyWebhook(BODY, `t=${stamp - 1},v1=${mac}`, SECRET))).toMatch(/does not match/);
    const other = webhookSignature('whsec_someone-else', stamp, BODY);
    expect(await refusal(verifyWebhook(BODY, other, SECRET))).toMatch(/does not match/);
    expect(await refusal(verifyWebhook(BODY, `t=${stamp},v1=${mac.slice(0, 63)}`, SECRET))).toMatch(
      /does not match/,
    );
  });

  it('refuses a missing or malformed header', async () => {
    expect(await refusal(verifyWebhook(BODY, undefined, SECRET))).toMatch(/no Deckforge-Signature header/);
    expect(await refusal(verifyWebhook(BODY, 'v1=abc', SECRET))).toMatch(/no t=… and v1=… entries/);
    expect(await refusal(verifyWebhook(BODY, `t=${nowSeconds()}`, SECRET))).toMatch(/no t=… and v1=…/);
  });

  it('accepts a header listing several signatures when one of them matches', async () => {
    const stamp = nowSeconds();
    const good = webhookSignature(SECRET, stamp, BODY).split(',v1=')[1] ?? '';
    const header = `t=${stamp},v1=${'0'.repeat(64)},v1=${good.toUpperCase()}`;
    expect(await verifyWebhook(new TextEncoder().encode(BODY), header, SECRET)).toMatchObject({
      status: 'SUCCEEDED',
    });
  });
});
