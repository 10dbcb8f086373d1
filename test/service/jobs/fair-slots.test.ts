/** FairSlots: the waiting account served longest ago gets the next slot; a withdrawn wait leaves the queue. */
import { expect, it } from 'vitest';
import { FairSlots } from '../../../src/service/jobs/fair-slots.js';

const settled = async <T>(promise: Promise<T>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

it('a withdrawn wait rejects with the signal reason, leaves the queue, and the next account gets the slot', async () => {
  const slots = new FairSlots(1);
  const held = await slots.acquire('a');
  const withdrawn = new AbortController();
  const leaving = slots.acquire('b', withdrawn.signal);
  const staying = slots.acquire('c');
  expect(slots.waitingCount).toBe(2);
  withdrawn.abort(new Error('client went away'));
  await expect(leaving).rejects.toThrow('client went away');
  expect(slots.waitingCount).toBe(1);
  expect(await settled(staying)).toBe(false);
  held();
  const next = await staying;
  expect(slots.waitingCount).toBe(0);
  next();
  // The slot came back: a new request takes it at once.
  expect(await settled(slots.acquire('d'))).toBe(true);
});

it('an already withdrawn request never waits', async () => {
  const slots = new FairSlots(1);
  await expect(slots.acquire('a', AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  expect(slots.waitingCount).toBe(0);
});

it('an abort after the slot was handed over changes nothing', async () => {
  const slots = new FairSlots(1);
  const held = await slots.acquire('a');
  const late = new AbortController();
  const waiting = slots.acquire('b', late.signal);
  held();
  const release = await waiting;
  late.abort();
  expect(slots.waitingCount).toBe(0);
  release();
  expect(await settled(slots.acquire('c'))).toBe(true);
});
