import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, refuseHalfSharedConfig, refuseHalfSharedStores } from './index.js';

const DB = { DECKFORGE_DATABASE_URL: 'postgres://deckforge:secret@db:5432/deckforge' };
const REDIS = { DECKFORGE_REDIS_URL: 'redis://:hunter2@redis:6379/0' };
const S3 = { DECKFORGE_S3_BUCKET: 'deckforge-results' };

function refusal(env: Record<string, string>): string {
  try {
    refuseHalfSharedConfig(loadConfig(env, '/srv'));
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
}

describe('configuration of the shared stores', () => {
  it('keeps everything in this process by default', () => {
    expect(loadConfig({}, '/srv')).toMatchObject({ redis: null, s3: null });
  });

  it('reads Redis and S3 settings (S3 region from AWS_REGION when not given)', () => {
    const config = loadConfig(
      {
        ...DB,
        ...REDIS,
        DECKFORGE_REDIS_PREFIX: 'decks-prod',
        ...S3,
        DECKFORGE_S3_ENDPOINT: 'http://minio:9000',
        DECKFORGE_S3_FORCE_PATH_STYLE: 'true',
        AWS_REGION: 'eu-central-1',
      },
      '/srv',
    );
    expect(config.redis).toEqual({ url: REDIS.DECKFORGE_REDIS_URL, prefix: 'decks-prod' });
    expect(config.s3).toEqual({
      bucket: 'deckforge-results',
      region: 'eu-central-1',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    });
    expect(loadConfig({ ...S3, DECKFORGE_S3_REGION: 'us-west-2' }, '/srv').s3?.region).toBe('us-west-2');
  });

  it('accepts S3 alone on one machine, and all three shared', () => {
    expect(loadConfig(S3, '/srv').s3?.bucket).toBe('deckforge-results');
    expect(loadConfig({ ...DB, ...REDIS, ...S3 }, '/srv').redis).not.toBeNull();
  });

  it('refuses every half-shared combination, saying what is missing and why', () => {
    expect(refusal(REDIS)).toMatch(/DECKFORGE_REDIS_URL .* needs DECKFORGE_DATABASE_URL.*SQLite/);
    expect(refusal({ ...REDIS, ...S3 })).toMatch(/needs DECKFORGE_DATABASE_URL/);
    expect(refusal(DB)).toMatch(/DECKFORGE_DATABASE_URL .* needs DECKFORGE_REDIS_URL.*never see a job/);
    expect(refusal({ ...DB, ...S3 })).toMatch(/needs DECKFORGE_REDIS_URL/);
    expect(refusal({ ...DB, ...REDIS })).toMatch(/need DECKFORGE_S3_BUCKET.*another/);
  });

  it('decides over the three choices in one place', () => {
    const combos = [false, true].flatMap((d) =>
      [false, true].flatMap((q) => [false, true].map((f) => [d, q, f] as const)),
    );
    const accepted = combos.filter(([sharedDatabase, sharedQueue, sharedFiles]) => {
      try {
        refuseHalfSharedStores({ sharedDatabase, sharedQueue, sharedFiles });
        return true;
      } catch {
        return false;
      }
    });
    expect(accepted).toEqual([
      [false, false, false],
      [false, false, true],
      [true, true, true],
    ]);
  });

  it('refuses bad values without echoing a password', () => {
    const bad = refusal({ ...DB, ...S3, DECKFORGE_REDIS_URL: 'http://:hunter2@redis:6379' });
    expect(bad).toMatch(/must start with redis:\/\/ or rediss:\/\//);
    expect(bad).not.toContain('hunter2');
    expect(refusal({ DECKFORGE_S3_ENDPOINT: 'http://minio:9000' })).toMatch(
      /DECKFORGE_S3_ENDPOINT is set but DECKFORGE_S3_BUCKET is not/,
    );
    expect(refusal({ DECKFORGE_S3_BUCKET: 'Bad_Bucket' })).toMatch(/valid bucket name/);
    expect(refusal({ ...S3, DECKFORGE_S3_ENDPOINT: 'minio:9000' })).toMatch(/must be an http\(s\) URL/);
    expect(refusal({ DECKFORGE_REDIS_PREFIX: 'a b' })).toMatch(/DECKFORGE_REDIS_PREFIX/);
  });
});
