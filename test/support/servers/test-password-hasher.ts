/**
 * The password hasher the test harnesses give their runtimes: the production scrypt code at a small cost
 * (N = 2^10, r = 8, p = 1: a few milliseconds a hash where the defaults take some 400 ms on a busy 2-core
 * machine, paid twice by each account a test signs up). A stored hash names its parameters, so a server
 * started with the default hasher (a CLI child process) verifies it like any other. The hasher's own contract
 * test (test/adapters/crypto/scrypt-password-hasher.test.ts) and the sign-in flood test (test/http/sign-in-flood.test.ts) keep
 * the production settings.
 */
import { ScryptPasswordHasher } from '../../../src/adapters/crypto/scrypt-password-hasher.js';

export const testPasswordHasher = new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 });
