/**
 * The console's session lifetimes on the service's clock: a session ends after 12 hours without a request, and
 * 7 days after it began however active it is; a disabled account's session ends at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ABSOLUTE_MS, IDLE_MS } from '../../../src/service/accounts/console-sessions.js';
import { startHarness, type Harness } from '../service-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ overrides: { workers: 1 } });
});
afterAll(async () => {
  await h?.close();
});

const HOUR = 60 * 60 * 1000;

describe('console session lifetimes', () => {
  it('ends a session idle for 12 hours, and not one used within them', async () => {
    const { sessionId } = await h.service.console.openSession({ clientAddress: '192.0.2.9' });
    h.clock.advance(IDLE_MS - HOUR);
    expect(await h.service.console.session(sessionId)).not.toBeNull();
    h.clock.advance(IDLE_MS - HOUR);
    expect(await h.service.console.session(sessionId)).not.toBeNull();
    h.clock.advance(IDLE_MS);
    expect(await h.service.console.session(sessionId)).toBeNull();
  });

  it('ends a session 7 days after sign-in however active it is', async () => {
    const owner = await h.signUp();
    const anonymous = await h.service.console.openSession({ clientAddress: '192.0.2.9' });
    const { sessionId } = await h.service.console.signIn(
      anonymous.session,
      { email: owner.email, password: owner.password },
      { clientAddress: '192.0.2.10' },
    );
    for (let used = 0; used + 11 * HOUR < ABSOLUTE_MS; used += 11 * HOUR) {
      h.clock.advance(11 * HOUR);
      expect((await h.service.console.session(sessionId))?.account?.email).toBe(owner.email);
    }
    h.clock.advance(11 * HOUR);
    expect(await h.service.console.session(sessionId)).toBeNull();
  });

  it('ends the session of an account an operator disables', async () => {
    const owner = await h.signUp();
    const { sessionId } = await h.service.console.signIn(
      null,
      { email: owner.email, password: owner.password },
      { clientAddress: '192.0.2.11' },
    );
    expect(await h.service.console.session(sessionId)).not.toBeNull();
    await h.runtime.admin.disable(owner.email);
    expect(await h.service.console.session(sessionId)).toBeNull();
  });

  it('ignores cookie values that are not session ids', async () => {
    for (const value of [undefined, '', 'x', 'a'.repeat(43), '../'.repeat(20)]) {
      expect(await h.service.console.session(value)).toBeNull();
    }
  });
});
