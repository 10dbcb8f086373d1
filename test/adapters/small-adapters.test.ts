import { ScryptPasswordHasher } from '../../src/adapters/crypto/scrypt-password-hasher.js';
import { MemoryRateLimiter } from '../../src/adapters/memory/memory-rate-limiter.js';
import {
  describePasswordHasherContract,
  describeRateLimiterContract,
} from './contracts/small-ports-contract.js';

describePasswordHasherContract('scrypt', () => new ScryptPasswordHasher());

describeRateLimiterContract('memory, fixed one-minute window', () => {
  let now = Date.parse('2026-11-21T10:00:30.000Z');
  return { limiter: new MemoryRateLimiter({ now: () => new Date(now) }), advance: (ms) => (now += ms) };
});
