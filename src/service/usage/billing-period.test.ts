import { describe, expect, it } from 'vitest';
import { billingPeriod, formatResetDate, periodKey } from './billing-period.js';

const d = (iso: string) => new Date(iso);

describe('billing period', () => {
  it('starts on the subscription day and resets on the same day next month', () => {
    const p = billingPeriod(d('2026-03-21T09:30:00Z'), d('2026-11-25T12:00:00Z'));
    expect([p.start.toISOString(), p.next.toISOString(), p.previous.toISOString()]).toEqual([
      '2026-11-21T09:30:00.000Z',
      '2026-12-21T09:30:00.000Z',
      '2026-10-21T09:30:00.000Z',
    ]);
    expect(formatResetDate(p.next)).toBe('21 December 2026');
    expect(periodKey(p.start)).toBe('2026-11-21');
  });

  it('before this month’s anniversary, the period began last month', () => {
    const p = billingPeriod(d('2026-03-21T09:30:00Z'), d('2026-11-21T09:29:59Z'));
    expect(p.start.toISOString()).toBe('2026-10-21T09:30:00.000Z');
    expect(formatResetDate(p.next)).toBe('21 November 2026');
  });

  it('clamps the 31st to shorter months without drifting, across the year end', () => {
    const start = d('2026-01-31T00:00:00Z');
    expect(formatResetDate(billingPeriod(start, d('2026-02-10T00:00:00Z')).next)).toBe('28 February 2026');
    expect(formatResetDate(billingPeriod(start, d('2026-03-01T00:00:00Z')).next)).toBe('31 March 2026');
    expect(formatResetDate(billingPeriod(start, d('2028-02-15T00:00:00Z')).next)).toBe('29 February 2028');
    expect(formatResetDate(billingPeriod(start, d('2026-04-30T00:00:00Z')).next)).toBe('31 May 2026');
    expect(formatResetDate(billingPeriod(start, d('2026-12-31T00:00:01Z')).next)).toBe('31 January 2027');
  });

  it('the first period begins at the subscription itself', () => {
    const p = billingPeriod(d('2026-11-21T10:00:00Z'), d('2026-11-21T10:00:00Z'));
    expect(p.start.toISOString()).toBe('2026-11-21T10:00:00.000Z');
    expect(formatResetDate(p.next)).toBe('21 December 2026');
  });
});
