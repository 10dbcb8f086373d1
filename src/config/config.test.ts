import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_PLANS, ConfigError, loadConfig } from './index.js';

describe('configuration', () => {
  it('has the documented defaults and is frozen', () => {
    const config = loadConfig({}, '/srv/deckforge');
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/deckforge/data',
      allowPrivateUrls: false,
      publicBaseUrl: null,
      jobRetentionHours: 24,
      limits: {
        maxUploadBytes: 50 * 1024 * 1024,
        maxFilesPerRequest: 50,
        maxSlidesPerRequest: 5000,
        syncMaxSlides: 1000,
      },
      logLevel: 'info',
      linkSecret: null,
    });
    expect(config.workers).toBeGreaterThanOrEqual(1);
    expect(config.plans).toEqual(BUILT_IN_PLANS);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.limits)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DECKFORGE_DATA_DIR: '/var/lib/deckforge',
      DECKFORGE_ALLOW_PRIVATE_URLS: 'true',
      DECKFORGE_PUBLIC_URL: 'https://decks.example.com/',
      DECKFORGE_JOB_RETENTION_HOURS: '48',
      DECKFORGE_MAX_UPLOAD_MB: '10',
      DECKFORGE_MAX_SLIDES_PER_REQUEST: '300',
      DECKFORGE_MAX_FILES_PER_REQUEST: '5',
      DECKFORGE_SYNC_MAX_SLIDES: '100',
      DECKFORGE_WORKERS: '3',
      DECKFORGE_FETCH_TIMEOUT_SECONDS: '5',
      DECKFORGE_LINK_SECRET: 'x'.repeat(40),
      DECKFORGE_LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/deckforge',
      allowPrivateUrls: true,
      publicBaseUrl: 'https://decks.example.com',
      jobRetentionHours: 48,
      limits: {
        maxUploadBytes: 10 * 1024 * 1024,
        maxFilesPerRequest: 5,
        maxSlidesPerRequest: 300,
        syncMaxSlides: 100,
      },
      workers: 3,
      fetchTimeoutMs: 5000,
      linkSecret: 'x'.repeat(40),
      logLevel: 'debug',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT must be a whole number, got "eighty"/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ DECKFORGE_ALLOW_PRIVATE_URLS: 'maybe' }, /DECKFORGE_ALLOW_PRIVATE_URLS must be true or false/],
    [{ DECKFORGE_PUBLIC_URL: 'decks.example.com' }, /DECKFORGE_PUBLIC_URL must be an absolute http\(s\) URL/],
    [{ DECKFORGE_WORKERS: '0' }, /DECKFORGE_WORKERS must be between 1/],
    [{ DECKFORGE_TEMPLATE_CACHE_MB: '-1' }, /DECKFORGE_TEMPLATE_CACHE_MB must be a whole number/],
    [{ DECKFORGE_LOG_LEVEL: 'loud' }, /DECKFORGE_LOG_LEVEL must be one of/],
    [{ DECKFORGE_LINK_SECRET: 'short' }, /at least 32 characters/],
    [
      { DECKFORGE_PLANS: '/nonexistent/plans.json' },
      /DECKFORGE_PLANS: cannot read \/nonexistent\/plans.json/,
    ],
  ])('refuses %o with a readable message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('keeps 256 MB of templates unless DECKFORGE_TEMPLATE_CACHE_MB says otherwise; 0 turns the cache off', () => {
    expect(loadConfig({}).templateCacheMb).toBe(256);
    expect(loadConfig({ DECKFORGE_TEMPLATE_CACHE_MB: '64' }).templateCacheMb).toBe(64);
    expect(loadConfig({ DECKFORGE_TEMPLATE_CACHE_MB: '0' }).templateCacheMb).toBe(0);
  });

  it('reads plans from DECKFORGE_PLANS; a missing default means the first plan', () => {
    const dir = mkdtempSync(join(tmpdir(), 'deckforge-plans-'));
    try {
      const file = join(dir, 'plans.json');
      writeFileSync(
        file,
        JSON.stringify({
          plans: [
            { name: 'Team', allowedSlideCount: 500, requestsPerMinute: 30 },
            { name: 'Pro', allowedSlideCount: 5000, requestsPerMinute: 300 },
          ],
        }),
      );
      expect(loadConfig({ DECKFORGE_PLANS: file }).plans.defaultPlan).toBe('Team');
      writeFileSync(
        file,
        JSON.stringify({
          default: 'Pro',
          plans: [
            { name: 'Team', allowedSlideCount: 500, requestsPerMinute: 30 },
            { name: 'Pro', allowedSlideCount: 5000, requestsPerMinute: 300 },
          ],
        }),
      );
      expect(loadConfig({ DECKFORGE_PLANS: file }).plans.defaultPlan).toBe('Pro');
      // Without firstAccount, the first start's account gets the default plan; with it, the plan named.
      expect(loadConfig({ DECKFORGE_PLANS: file }).plans.firstAccountPlan).toBe('Pro');
      writeFileSync(
        file,
        JSON.stringify({
          firstAccount: 'Own',
          plans: [
            { name: 'Team', allowedSlideCount: 500, requestsPerMinute: 30 },
            { name: 'Own', allowedSlideCount: 1e9, requestsPerMinute: 1e5 },
          ],
        }),
      );
      expect(loadConfig({ DECKFORGE_PLANS: file }).plans).toMatchObject({
        defaultPlan: 'Team',
        firstAccountPlan: 'Own',
      });
      writeFileSync(
        file,
        JSON.stringify({
          firstAccount: 'Admin',
          plans: [{ name: 'Team', allowedSlideCount: 500, requestsPerMinute: 30 }],
        }),
      );
      expect(() => loadConfig({ DECKFORGE_PLANS: file })).toThrow(
        /firstAccount plan "Admin" is not among the plans/,
      );
      writeFileSync(
        file,
        JSON.stringify({
          default: 'Gold',
          plans: [{ name: 'Team', allowedSlideCount: 500, requestsPerMinute: 30 }],
        }),
      );
      expect(() => loadConfig({ DECKFORGE_PLANS: file })).toThrow(
        /default plan "Gold" is not among the plans/,
      );
      writeFileSync(
        file,
        JSON.stringify({ plans: [{ name: 'Team', allowedSlideCount: -1, requestsPerMinute: 30 }] }),
      );
      expect(() => loadConfig({ DECKFORGE_PLANS: file })).toThrow(/at plans\.0\.allowedSlideCount/);
      writeFileSync(file, '{ nope');
      expect(() => loadConfig({ DECKFORGE_PLANS: file })).toThrow(/is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the renderer settings, half the cores by default, and names a bad one', () => {
    const defaults = loadConfig({ PATH: '/usr/bin:/bin' }).rendering;
    expect(defaults).toEqual({
      renderers: Math.max(1, Math.floor(availableParallelism() / 2)),
      timeoutMs: 60_000,
      recycleAfter: 200,
      memoryMb: 1024,
      python: null,
      searchPath: '/usr/bin:/bin',
      isolation: 'required',
    });
    expect(
      loadConfig({
        DECKFORGE_RENDERERS: '3',
        DECKFORGE_RENDER_TIMEOUT_SECONDS: '20',
        DECKFORGE_RENDER_RECYCLE_AFTER: '50',
        DECKFORGE_RENDER_MEMORY_MB: '512',
        DECKFORGE_RENDER_PYTHON: '/opt/lo/python',
        DECKFORGE_RENDER_ISOLATION: 'unsandboxed-accept-risk',
      }).rendering,
    ).toMatchObject({
      renderers: 3,
      timeoutMs: 20_000,
      recycleAfter: 50,
      memoryMb: 512,
      python: '/opt/lo/python',
      isolation: 'unsandboxed-accept-risk',
    });
    expect(() => loadConfig({ DECKFORGE_RENDERERS: '0' })).toThrow(
      /DECKFORGE_RENDERERS must be between 1 and 256/,
    );
    expect(() => loadConfig({ DECKFORGE_RENDER_TIMEOUT_SECONDS: 'soon' })).toThrow(
      /DECKFORGE_RENDER_TIMEOUT_SECONDS must be a whole number/,
    );
    expect(() => loadConfig({ DECKFORGE_RENDER_MEMORY_MB: '64' })).toThrow(
      /DECKFORGE_RENDER_MEMORY_MB must be between 128/,
    );
    expect(() => loadConfig({ DECKFORGE_RENDER_ISOLATION: 'off' })).toThrow(
      'DECKFORGE_RENDER_ISOLATION must be required or unsandboxed-accept-risk, got "off"',
    );
    // `auto` dropped the sandbox silently where the system gave none: refused, saying what to set instead.
    expect(() => loadConfig({ DECKFORGE_RENDER_ISOLATION: 'auto' })).toThrow(
      /^DECKFORGE_RENDER_ISOLATION must be required or unsandboxed-accept-risk, got "auto": auto is no more/,
    );
  });
});
