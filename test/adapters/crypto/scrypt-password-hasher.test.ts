import { ScryptPasswordHasher } from '../../../src/adapters/crypto/scrypt-password-hasher.js';
import { describePasswordHasherContract } from '../contracts/small-ports-contract.js';

describePasswordHasherContract('scrypt', () => new ScryptPasswordHasher());
