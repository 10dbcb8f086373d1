import { describe, expect, it } from 'vitest';
import { templateCacheBudget } from './template-cache-budget.js';

const MB = 2 ** 20;

describe('templateCacheBudget', () => {
  it('shares DECKFORGE_TEMPLATE_CACHE_MB out so that the parts never add up to more', () => {
    for (const [mb, threads] of [
      [256, 2],
      [256, 7],
      [1, 3],
      [65_536, 256],
    ] as const) {
      const { perThreadBytes, inspectResultsBytes } = templateCacheBudget(mb, threads);
      expect(perThreadBytes * threads + inspectResultsBytes).toBeLessThanOrEqual(mb * MB);
      expect(perThreadBytes).toBeGreaterThan(0);
      expect(inspectResultsBytes).toBeLessThanOrEqual(16 * MB);
    }
    expect(templateCacheBudget(256, 2)).toEqual({ perThreadBytes: 120 * MB, inspectResultsBytes: 16 * MB });
  });

  it('gives nothing to either when the setting is 0', () => {
    expect(templateCacheBudget(0, 4)).toEqual({ perThreadBytes: 0, inspectResultsBytes: 0 });
  });
});
