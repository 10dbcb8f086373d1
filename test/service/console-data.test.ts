/**
 * What the console shows of an account, through the service on a real runtime (SQLite, worker threads, the
 * engine): tokens listed, used and revoked; slides per UTC day over a month end and a period boundary, with
 * the previous period; the account's jobs and never another's. The clock is the harness's: any real date works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError, UnauthorizedError } from '../../src/service/errors.js';
import {
  ManualClock,
  deck,
  expectValidJobDeck,
  startHarness,
  upload,
  waitForJob,
  type Harness,
} from './service-harness.js';

const HOUR = 60 * 60 * 1000;
const BASE = 'http://127.0.0.1:8080';

describe('console data through the service', () => {
  let h: Harness;
  // A subscription on 31 January late in the UTC day: the period resets on 28 February at 22:00.
  const clock = new ManualClock(new Date('2027-01-31T22:00:00.000Z'));
  beforeAll(async () => {
    h = await startHarness({ clock });
  });
  afterAll(async () => h.close());

  it('keeps the name a token was given, trimmed, and refuses names that are not short plain text', async () => {
    const { account } = await h.signUp();
    const named = await h.service.createToken(account, '  Nightly report export  ');
    const unnamed = await h.service.createToken(account, '');
    const listed = await h.service.listTokens(account);
    expect(listed.find((t) => t.id === named.id)?.name).toBe('Nightly report export');
    expect(listed.find((t) => t.id === unnamed.id)?.name).toBeNull();
    const refused: [unknown, string][] = [
      ['x'.repeat(61), 'name: at most 60 characters, got 61'],
      ['two\nlines', 'name: no control characters (line breaks, tabs)'],
      [42, 'name: a token name is text'],
    ];
    for (const [name, message] of refused) {
      await expect(h.service.createToken(account, name)).rejects.toThrow(new InvalidInputError(message));
    }
    expect(await h.service.listTokens(account)).toHaveLength(listed.length); // none of those was made
  });

  it('lists live tokens with last use, revokes one by id and refuses it at once, never shows the token', async () => {
    const { account, token } = await h.signUp();
    const made = await h.service.createToken(account);
    expect(made.token).not.toBe(token);
    expect(made.expiresAt).toBe(new Date(clock.current.getTime() + 24 * HOUR).toISOString());
    const listed = await h.service.listTokens(account);
    expect(listed).toHaveLength(2);
    expect(JSON.stringify(listed)).not.toContain(made.token);
    const mine = listed.find((t) => t.id === made.id);
    expect(mine).toEqual({
      id: made.id,
      name: null,
      createdAt: clock.current.toISOString(),
      expiresAt: made.expiresAt,
      lastUsedAt: null,
    });

    // A console-made token authenticates like any; its use is recorded, at most once a minute.
    expect((await h.service.authenticate(made.token)).id).toBe(account.id);
    const usedAt = clock.current.toISOString();
    clock.advance(30_000);
    await h.service.authenticate(made.token);
    expect((await h.service.listTokens(account)).find((t) => t.id === made.id)?.lastUsedAt).toBe(usedAt);
    clock.advance(40_000);
    await h.service.authenticate(made.token);
    expect((await h.service.listTokens(account)).find((t) => t.id === made.id)?.lastUsedAt).toBe(
      clock.current.toISOString(),
    );

    // Another account cannot revoke it; its owner can, once, and it is refused at once.
    const other = await h.signUp();
    await expect(h.service.revokeToken(other.account, made.id)).rejects.toBeInstanceOf(NotFoundError);
    await h.service.revokeToken(account, made.id);
    await expect(h.service.authenticate(made.token)).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(h.service.revokeToken(account, made.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.service.listTokens(account)).map((t) => t.id)).not.toContain(made.id);
    expect((await h.service.authenticate(token)).id).toBe(account.id); // the other token still works

    // An expired token leaves the list.
    clock.advance(25 * HOUR);
    expect(await h.service.listTokens(account)).toEqual([]);
  });

  it('keeps slides per UTC day over a month end, then starts a new period with the previous one summed', async () => {
    clock.current = new Date('2027-01-31T22:00:00.000Z');
    const { account } = await h.signUp();
    const generate = async (slides: number) => {
      const result = await h.service.generateNow(account, upload(deck(slides)));
      await result.content.discard();
    };
    await generate(2); // 31 January
    await h.service.recordApiCall(account, true);
    clock.advance(3 * HOUR); // 1 February, 01:00: same period, next UTC day
    await generate(3);
    await h.service.recordApiCall(account, true);
    await h.service.recordApiCall(account, false);
    clock.advance(24 * HOUR); // 2 February
    let usage = await h.service.usageDetail(account);
    expect(usage.usedSlideCount).toBe(5);
    expect(usage.perDay).toEqual([
      { date: '2027-01-31', slides: 2 },
      { date: '2027-02-01', slides: 3 },
      { date: '2027-02-02', slides: 0 },
    ]);
    expect(usage.apiCalls).toEqual({ total: 3, successful: 2, failed: 1 });
    expect(usage.resetDate).toBe('28 February 2027');
    expect(usage.previousPeriod.usedSlideCount).toBe(0);

    // 28 February 21:00: still the first period, the 28th listed with nothing yet.
    clock.current = new Date('2027-02-28T21:00:00.000Z');
    await generate(1);
    usage = await h.service.usageDetail(account);
    expect(usage.perDay).toHaveLength(29);
    expect(usage.perDay.at(-1)).toEqual({ date: '2027-02-28', slides: 1 });
    expect(usage.perDay.reduce((sum, d) => sum + d.slides, 0)).toBe(usage.usedSlideCount);

    // 28 February 23:00: a new period began at 22:00 on the same UTC day.
    clock.current = new Date('2027-02-28T23:00:00.000Z');
    await generate(4);
    await h.service.recordApiCall(account, true);
    usage = await h.service.usageDetail(account);
    expect(usage.usedSlideCount).toBe(4);
    expect(usage.perDay).toEqual([{ date: '2027-02-28', slides: 4 }]);
    expect(usage.apiCalls).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(usage.previousPeriod).toEqual({
      start: '2027-01-31T22:00:00.000Z',
      end: '2027-02-28T22:00:00.000Z',
      usedSlideCount: 6,
      apiCalls: { total: 3, successful: 2, failed: 1 },
    });
    expect(usage.previousMonthUsedSlideCount).toBe(6);
    expect([usage.totalApiCallCount, usage.successfulApiCallCount, usage.failedApiCallCount]).toEqual([
      4, 3, 1,
    ]);
    expect(usage.resetDate).toBe('31 March 2027');
  });

  it("lists the account's jobs most recent first with a working download link, and never another account's", async () => {
    clock.current = new Date('2027-03-10T12:00:00.000Z');
    const ann = await h.signUp();
    const bob = await h.signUp();
    const strict = deck(1, { shape_validation_mode: 'strict' });
    (strict.presentation.slides as { shapes: { name: string }[] }[])[0]!.shapes[0]!.name = 'Chart 7';
    const failing = await h.service.submitJob(ann.account, upload(strict));
    clock.advance(1000);
    const ok = await h.service.submitJob(ann.account, upload(deck(2)));
    const bobs = await h.service.submitJob(bob.account, upload(deck(1)));
    await waitForJob(h.service, ann.account, failing.jobId);
    await waitForJob(h.service, ann.account, ok.jobId);
    await waitForJob(h.service, bob.account, bobs.jobId);

    const jobs = await h.service.listJobs(ann.account, BASE);
    expect(jobs.map((j) => j.jobId)).toEqual([ok.jobId, failing.jobId]);
    const [done, failed] = jobs;
    expect(done).toMatchObject({ state: 'SUCCEEDED', slideCount: 2, errorMessage: null, warnings: [] });
    expect(done?.submittedAt).toBe('2027-03-10T12:00:01.000Z');
    expect(done?.finishedAt).not.toBeNull();
    expect(done?.downloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\/v2\.0\/files\//);
    await expectValidJobDeck(h.service, { fileUrl: done?.downloadUrl ?? null });
    expect(failed).toMatchObject({ state: 'FAILED', downloadUrl: null, slideCount: null });
    expect(failed?.errorMessage).toMatch(/Chart 7/);

    expect(await h.service.jobSummary(ann.account, ok.jobId, BASE)).toMatchObject({ jobId: ok.jobId });
    await expect(h.service.jobSummary(ann.account, bobs.jobId, BASE)).rejects.toBeInstanceOf(NotFoundError);
    expect((await h.service.listJobs(bob.account, BASE)).map((j) => j.jobId)).toEqual([bobs.jobId]);

    // Once expired, a job leaves the listing (its files go with it).
    clock.advance((h.config.jobRetentionHours + 1) * HOUR);
    expect(await h.service.listJobs(ann.account, BASE)).toEqual([]);
  });
});
