import { describe, expect, it } from 'vitest';
import type { InspectResult } from '../engine/index.js';
import { InspectResults } from './inspect-results.js';

/** A result whose JSON is about `size` characters: only the size matters to the cache. */
function resultOfSize(name: string, size: number): InspectResult {
  return { name, padding: 'x'.repeat(size) } as unknown as InspectResult;
}

const held = (result: InspectResult): number => JSON.stringify(result).length * 2;

describe('InspectResults', () => {
  it('keeps no more than its bound, letting the least recently used go first', () => {
    const [a, b, c] = ['a', 'b', 'c'].map((name) => resultOfSize(name, 1000)) as [
      InspectResult,
      InspectResult,
      InspectResult,
    ];
    const bound = held(a) * 2 + 10;
    const results = new InspectResults(bound);
    results.remember('hash-a', a);
    results.remember('hash-b', b);
    expect(results.get('hash-a')).toBe(a); // a is now the most recently used
    results.remember('hash-c', c);
    expect(results.heldBytes).toBeLessThanOrEqual(bound);
    expect(results.size).toBe(2);
    expect(results.get('hash-b')).toBeUndefined();
    expect(results.get('hash-a')).toBe(a);
    expect(results.get('hash-c')).toBe(c);
  });

  it('keeps nothing larger than its bound, and nothing at all with a bound of 0', () => {
    const results = new InspectResults(100);
    results.remember('big', resultOfSize('big', 1000));
    expect(results.get('big')).toBeUndefined();
    const off = new InspectResults(0);
    off.remember('small', resultOfSize('small', 1));
    expect(off.size).toBe(0);
    expect(off.heldBytes).toBe(0);
  });
});
