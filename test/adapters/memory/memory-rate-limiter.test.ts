import { MemoryRateLimiter } from '../../../src/adapters/memory/memory-rate-limiter.js';
import { describeRateLimiterContract } from '../contracts/small-ports-contract.js';

describeRateLimiterContract('memory, fixed one-minute window', () => {
  let now = Date.parse('2026-11-21T10:00:30.000Z');
  return { limiter: new MemoryRateLimiter({ now: () => new Date(now) }), advance: (ms) => (now += ms) };
});
