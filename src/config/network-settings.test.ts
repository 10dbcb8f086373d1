import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './index.js';

describe('hardening settings (docs/security.md)', () => {
  it('have the documented defaults', () => {
    const config = loadConfig({}, '/srv/deckforge');
    expect(config).toMatchObject({
      generationTimeoutMs: 120_000,
      shutdownTimeoutMs: 8_000,
      trustedHosts: ['127.0.0.1', 'localhost', '::1'],
      trustProxy: false,
      metricsToken: null,
    });
    // Listening on every interface: that address is no name for a link.
    expect(loadConfig({ HOST: '0.0.0.0' }).trustedHosts).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(loadConfig({ HOST: 'decks.internal' }).trustedHosts).toEqual([
      'decks.internal',
      'localhost',
      '127.0.0.1',
      '::1',
    ]);
  });

  it('read every variable', () => {
    const config = loadConfig({
      DECKFORGE_GENERATION_TIMEOUT_SECONDS: '30',
      DECKFORGE_SHUTDOWN_TIMEOUT_SECONDS: '0',
      DECKFORGE_TRUSTED_HOSTS: 'Decks.Example.com, decks.internal:8080 ,[::1]:9000',
      DECKFORGE_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16',
      DECKFORGE_METRICS_TOKEN: 'a-long-enough-metrics-token',
    });
    expect(config).toMatchObject({
      generationTimeoutMs: 30_000,
      shutdownTimeoutMs: 0,
      trustedHosts: ['decks.example.com', 'decks.internal:8080', '[::1]:9000'],
      trustProxy: ['10.0.0.5', '10.1.0.0/16'],
      metricsToken: 'a-long-enough-metrics-token',
    });
    expect(loadConfig({ DECKFORGE_TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DECKFORGE_TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DECKFORGE_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
  });

  it.each([
    [{ DECKFORGE_GENERATION_TIMEOUT_SECONDS: '0' }, /DECKFORGE_GENERATION_TIMEOUT_SECONDS must be between 1/],
    [
      { DECKFORGE_SHUTDOWN_TIMEOUT_SECONDS: 'soon' },
      /DECKFORGE_SHUTDOWN_TIMEOUT_SECONDS must be a whole number/,
    ],
    [{ DECKFORGE_TRUSTED_HOSTS: 'evil.example/path' }, /DECKFORGE_TRUSTED_HOSTS must list host names/],
    [{ DECKFORGE_TRUST_PROXY: 'my proxy' }, /DECKFORGE_TRUST_PROXY must be true, false/],
    [{ DECKFORGE_METRICS_TOKEN: 'short' }, /DECKFORGE_METRICS_TOKEN must be at least 16 characters/],
  ])('refuse %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
