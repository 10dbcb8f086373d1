/** Refusals that print a count of one slide say "1 slide": the per-request limit and a plan's allowance. */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../service-harness.js';

const SAMPLE = new Uint8Array(
  readFileSync(new URL('../../../examples/sample-template.pptx', import.meta.url)),
);

function request(slides: number) {
  const presentation = {
    template: 'sample-template.pptx',
    slides: Array.from({ length: slides }, () => ({ slide_index: 0 })),
  };
  return {
    jsonData: JSON.stringify({ presentation }),
    files: [{ name: 'sample-template.pptx', bytes: SAMPLE }],
  };
}

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

describe('a count of one slide', () => {
  it('in the per-request limit', async () => {
    h = await startHarness({ overrides: { limits: { maxSlidesPerRequest: 1 } } });
    const user = await h.signUp();
    const refused = await h.service.generateNow(user.account, request(2)).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      'the request asks for 2 slides; a request may ask for at most 1 slide',
    );
  });

  it("in a plan's allowance", async () => {
    h = await startHarness({ plans: [{ name: 'Single', allowedSlideCount: 1, requestsPerMinute: 100 }] });
    const user = await h.signUp('Single');
    const refused = await h.service.generateNow(user.account, request(2)).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      'monthly slide limit exceeded: plan Single allows 1 slide, 0 used, this request needs 2, more than the plan allows in a whole month',
    );
  });
});
