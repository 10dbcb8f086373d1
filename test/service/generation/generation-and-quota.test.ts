/**
 * Synchronous generation through the real worker pool and engine, the slide allowance (reserved before any
 * work, exact under concurrency, released on failure), the request limits, the rate limit and the usage report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { EngineError } from '../../../src/engine/index.js';
import type { GeneratedDeck } from '../../../src/service/deckforge-service.js';
import { InvalidInputError, TooManyRequestsError } from '../../../src/service/errors.js';
import {
  deck,
  startHarness,
  TEMPLATE_NAME,
  templateBytes,
  upload,
  type Harness,
} from '../service-harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    overrides: {
      limits: {
        maxFilesPerRequest: 3,
        maxSlidesPerRequest: 40,
        syncMaxSlides: 20,
        maxUploadBytes: 2 * 1024 * 1024,
      },
    },
  });
});
afterAll(async () => {
  await h.close();
});

describe('synchronous generation', () => {
  it('returns a .pptx named after resultFileName and counts its slides', async () => {
    const user = await h.signUp();
    const result = await h.service.generateNow(
      user.account,
      upload(deck(3, { resultFileName: 'Quarterly review' })),
    );
    await expectValidPptx(await result.content.bytes(), templateBytes());
    expect(result.slideCount).toBe(3);
    expect(result.fileName).toBe('Quarterly review.pptx');
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(3);
  });

  it('accepts an already-parsed jsonData value (plain JSON bodies)', async () => {
    const user = await h.signUp();
    const result = await h.service.generateNow(user.account, {
      jsonData: deck(1),
      files: [{ name: TEMPLATE_NAME, bytes: templateBytes() }],
    });
    expect(result.slideCount).toBe(1);
    await expectValidPptx(await result.content.bytes(), templateBytes());
  });

  it('malformed jsonData, invalid payloads and missing templates are input errors, with nothing used', async () => {
    const user = await h.signUp();
    await expect(
      h.service.generateNow(user.account, { jsonData: '{"presentation": ', files: [] }),
    ).rejects.toThrow(/jsonData: not valid JSON at line 1, column 18: unexpected end of input/);
    await expect(
      h.service.generateNow(user.account, upload({ presentation: { slides: 'none' } })),
    ).rejects.toBeInstanceOf(EngineError);
    await expect(h.service.generateNow(user.account, upload(deck(1), []))).rejects.toThrow(
      /"layouts.pptx" was not uploaded/,
    );
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
  });

  it('a template problem found by the engine releases the reservation', async () => {
    const user = await h.signUp('Tiny');
    const strict = deck(10, { shape_validation_mode: 'strict' });
    ((strict.presentation.slides as { shapes: { name: string }[] }[])[0]?.shapes[0] ?? { name: '' }).name =
      'No such shape';
    await expect(h.service.generateNow(user.account, upload(strict))).rejects.toBeInstanceOf(EngineError);
    // The whole allowance is free again.
    const result = await h.service.generateNow(user.account, upload(deck(10)));
    expect(result.slideCount).toBe(10);
    await expectValidPptx(await result.content.bytes(), templateBytes());
  });

  it('enforces files per request, slides per request, the synchronous ceiling and the upload size', async () => {
    const user = await h.signUp();
    const file = { name: TEMPLATE_NAME, bytes: templateBytes() };
    const fourFiles = [
      file,
      { ...file, name: 'a.png' },
      { ...file, name: 'b.png' },
      { ...file, name: 'c.png' },
    ];
    await expect(h.service.generateNow(user.account, upload(deck(1), fourFiles))).rejects.toThrow(
      /too many files: 4 .* at most 3/,
    );
    await expect(h.service.generateNow(user.account, upload(deck(41)))).rejects.toThrow(/at most 40 slides/);
    await expect(h.service.generateNow(user.account, upload(deck(21)))).rejects.toThrow(/create-async/);
    const big = { name: 'big.png', bytes: new Uint8Array(2 * 1024 * 1024) };
    await expect(h.service.generateNow(user.account, upload(deck(1), [file, big]))).rejects.toThrow(
      InvalidInputError,
    );
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
  });
});

describe('slide allowance', () => {
  it('50 concurrent one-slide requests against an allowance of 10: exactly 10 succeed, 40 get 429', async () => {
    const user = await h.signUp('Tiny');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 50 }, () => h.service.generateNow(user.account, upload(deck(1)))),
    );
    const ok = outcomes.filter((o): o is PromiseFulfilledResult<GeneratedDeck> => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(TooManyRequestsError);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(10);
    for (const o of ok) await expectValidPptx(await o.value.content.bytes(), templateBytes());
  });

  it('says what the plan allows, what is used and what the request needs', async () => {
    const user = await h.signUp('Tiny');
    await expectValidPptx(
      await (await h.service.generateNow(user.account, upload(deck(5)))).content.bytes(),
      templateBytes(),
    );
    const refused = await h.service.generateNow(user.account, upload(deck(6))).catch((e: unknown) => e);
    expect((refused as Error).message).toBe(
      'monthly slide limit exceeded: plan Tiny allows 10 slides, 5 used, this request needs 6',
    );
    // Retry-After points at the reset: 30 days from the subscription start (the harness clock has not moved).
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(30 * 24 * 3600);
  });

  it('resets on the subscription day of the next month, and reports the previous period', async () => {
    const user = await h.signUp('Tiny');
    await expectValidPptx(
      await (await h.service.generateNow(user.account, upload(deck(10)))).content.bytes(),
      templateBytes(),
    );
    const before = await h.service.usage(user.account);
    expect(before.resetDate).toBe('21 December 2026');
    h.clock.advance(31 * 24 * 3600_000); // 22 December
    try {
      const after = await h.service.usage(user.account);
      expect([after.usedSlideCount, after.previousMonthUsedSlideCount, after.resetDate]).toEqual([
        0,
        10,
        '21 January 2027',
      ]);
      const next = await h.service.generateNow(user.account, upload(deck(10)));
      await expectValidPptx(await next.content.bytes(), templateBytes());
    } finally {
      h.clock.advance(-31 * 24 * 3600_000);
    }
  });
});

describe('rate limit and usage report', () => {
  it('refuses the request over the plan rate with a retry time', async () => {
    const user = await h.signUp('Slow');
    for (let i = 0; i < 3; i++) await h.service.checkRateLimit(user.account);
    const refused = await h.service.checkRateLimit(user.account).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).message).toMatch(/plan Slow allows 3 requests per minute/);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBeGreaterThan(0);
    h.clock.advance(60_000);
    await expect(h.service.checkRateLimit(user.account)).resolves.toBeUndefined();
  });

  it('reports every field with real values', async () => {
    const user = await h.signUp();
    await h.service.recordApiCall(user.account, true);
    await h.service.recordApiCall(user.account, true);
    await h.service.recordApiCall(user.account, false);
    await expectValidPptx(
      await (await h.service.generateNow(user.account, upload(deck(2)))).content.bytes(),
      templateBytes(),
    );
    const usage = await h.service.usage(user.account);
    expect(usage).toEqual({
      usedSlideCount: 2,
      plan: 'Free',
      allowedSlideCount: 100,
      subscriptions: [{ plan: 'Free', startDate: usage.subscriptionStartDate, status: 'active' }],
      resetDate: '21 December 2026',
      totalApiCallCount: 3,
      successfulApiCallCount: 2,
      failedApiCallCount: 1,
      previousMonthUsedSlideCount: 0,
      subscriptionStartDate: h.clock.now().toISOString(),
    });
  });
});

describe('inspect', () => {
  it('lists slides and shapes of an uploaded template', async () => {
    const user = await h.signUp();
    const result = (await h.service.inspectTemplate(user.account, {
      files: [{ name: TEMPLATE_NAME, bytes: templateBytes() }],
    })) as {
      slides: { shapes: { name: string }[] }[];
    };
    expect(result.slides).toHaveLength(10);
    expect(result.slides[0]?.shapes.map((s) => s.name)).toEqual(
      expect.arrayContaining(['Title 1', 'Subtitle 2']),
    );
    await expect(h.service.inspectTemplate(user.account, { files: [] })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });
});
