/**
 * Continuation slides of long tables are ordinary output slides: they count in `slideCount` and in the usage
 * allowance. The allowance is reserved before generation from the slides the request lists; the extra slides
 * are reserved once the deck is built, and a deck they do not fit is refused (429, or a FAILED job) with
 * nothing charged, never delivered over the allowance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { TooManyRequestsError } from '../../../src/service/errors.js';
import { expectValidPptx } from '../../support/checks/expect-valid-pptx.js';
import { tableTemplate } from '../../support/decks/layouts-template.js';
import { deck, startHarness, upload, waitForJob, type Harness } from '../service-harness.js';

/** Slide 0 has "Table 1": a header row and three body rows; about 14 rows fit on a slide. */
const TEMPLATE = tableTemplate();
/** A fresh copy each time: the worker pool takes (detaches) the buffers it is given. */
const files = () => [{ name: 'table.pptx', bytes: TEMPLATE.slice() }];

/** One slide whose table of `rows` rows continues on copies of it. */
function longTable(rows: number): { presentation: Record<string, unknown> } {
  return {
    presentation: {
      template: 'table.pptx',
      slides: [
        {
          slide_index: 0,
          shapes: [
            {
              name: 'Table 1',
              content: Array.from({ length: rows }, (_, r) => [`row ${r}`, r]),
              overflow: 'continue',
            },
          ],
        },
      ],
    },
  };
}

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ overrides: { limits: { syncMaxSlides: 12 } } });
});
afterAll(async () => {
  await h.close();
});

describe('continuation slides and the allowance', () => {
  it('are counted in slideCount and in the usage, synchronous and as a job', async () => {
    const user = await h.signUp();
    const sync = await h.service.generateNow(user.account, upload(longTable(40), files()));
    expect(sync.slideCount).toBeGreaterThan(1);
    expect(sync.warnings.some((w) => w.message.includes(`took ${sync.slideCount} slides`))).toBe(true);
    await expectValidPptx(await sync.content.bytes(), TEMPLATE);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(sync.slideCount);

    const { jobId } = await h.service.submitJob(user.account, upload(longTable(40), files()));
    const job = await waitForJob(h.service, user.account, jobId);
    expect(job.status).toBe('SUCCEEDED');
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(2 * sync.slideCount);
  });

  it('a synchronous deck whose extra slides do not fit the allowance is a 429, and nothing is charged', async () => {
    const user = await h.signUp('Tiny'); // 10 slides a month
    const refused = await h.service
      .generateNow(user.account, upload(longTable(150), files()))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as Error).message).toMatch(
      /^monthly slide limit exceeded: long tables continued on \d+ more slides than the 1 requested, \d+ in all; plan Tiny allows 10 slides.*, more than the plan allows in a whole month$/,
    );
    // Retry-After like every other 429: when the allowance resets, 30 days from the subscription start.
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBe(30 * 24 * 3600);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
    // Nothing stayed reserved: the whole allowance is still there.
    const ten = await h.service.generateNow(user.account, upload(deck(10)));
    expect(ten.slideCount).toBe(10);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(10);
  });

  it('a job whose extra slides do not fit fails with the reason and gives its reservation back', async () => {
    const user = await h.signUp('Tiny');
    const { jobId } = await h.service.submitJob(user.account, upload(longTable(150), files()));
    const job = await waitForJob(h.service, user.account, jobId);
    expect(job.status).toBe('FAILED');
    expect(job.errorMessage).toMatch(/long tables continued on \d+ more slides than the 1 requested/);
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
    const ten = await h.service.generateNow(user.account, upload(deck(10)));
    expect(ten.slideCount).toBe(10);
  });

  it('continuation slides past the synchronous slide limit are refused with a 400 naming the table', async () => {
    const user = await h.signUp();
    const refused = await h.service
      .generateNow(user.account, upload(longTable(400), files()))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(EngineError);
    expect((refused as EngineError).code).toBe('TOO_MANY_SLIDES');
    expect((refused as Error).message).toContain(
      'table "Table 1" continues on more slides than a deck may have',
    );
    expect((refused as Error).message).toContain('more than 12 slides');
    // The asynchronous endpoint takes more: the message says so, with both limits.
    expect((refused as Error).message).toMatch(
      /; synchronous generation makes at most 12 slides, POST \/v2\.0\/generator\/create-async up to \d+$/,
    );
    expect((await h.service.usage(user.account)).usedSlideCount).toBe(0);
  });
});
