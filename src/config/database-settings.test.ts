import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactedDatabaseUrl } from './index.js';

describe('database settings', () => {
  it('SQLite unless DECKFORGE_DATABASE_URL is set; PostgreSQL with a bounded pool and statement timeout', () => {
    expect(loadConfig({}).database).toBeNull();
    expect(loadConfig({ DECKFORGE_DATABASE_URL: '  ' }).database).toBeNull();
    const url = 'postgres://deckforge:s3cret@db.internal:5432/deckforge';
    expect(loadConfig({ DECKFORGE_DATABASE_URL: url }).database).toEqual({
      url,
      poolSize: 10,
      statementTimeoutMs: 15_000,
    });
    const tuned = loadConfig({
      DECKFORGE_DATABASE_URL: 'postgresql://db/deckforge',
      DECKFORGE_DATABASE_POOL_SIZE: '25',
      DECKFORGE_DATABASE_TIMEOUT_SECONDS: '3',
    }).database;
    expect(tuned).toMatchObject({ poolSize: 25, statementTimeoutMs: 3_000 });
  });

  it('refuses another scheme or a bad pool size, never repeating the password', () => {
    const refusal = (env: Record<string, string>): string => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    const mysql = refusal({ DECKFORGE_DATABASE_URL: 'mysql://root:hunter2@db/deckforge' });
    expect(mysql).toBe('DECKFORGE_DATABASE_URL must start with postgres://, got "mysql://…"');
    expect(refusal({ DECKFORGE_DATABASE_URL: 'db.internal:5432' })).toMatch(/^DECKFORGE_DATABASE_URL must/);
    expect(refusal({ DECKFORGE_DATABASE_URL: 'postgres://db/x', DECKFORGE_DATABASE_POOL_SIZE: '0' })).toMatch(
      /^DECKFORGE_DATABASE_POOL_SIZE must be between 1 and 500/,
    );
  });

  it('shows a URL with its password masked', () => {
    expect(redactedDatabaseUrl('postgres://deckforge:s3cret@db.internal:5432/deckforge')).toBe(
      'postgres://deckforge:***@db.internal:5432/deckforge',
    );
    expect(redactedDatabaseUrl('postgres://db.internal/deckforge')).toBe('postgres://db.internal/deckforge');
  });
});
