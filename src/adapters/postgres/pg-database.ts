/**
 * The PostgreSQL connection pool every PostgreSQL adapter shares, with bounded waits everywhere: connecting, waiting
 * for a free connection, and each statement. A lost server surfaces as StoreUnavailableError (never a hang, never
 * the driver's own error); the pool drops broken connections and opens fresh ones when the server is back.
 */
import pg from 'pg';
import { StoreUnavailableError } from '../../service/ports/index.js';

export interface PgPoolSettings {
  /** postgres://user:password@host:port/database */
  url: string;
  /** Connections at most (default 10). */
  maxConnections?: number;
  /** Connecting, and waiting for a free connection (default 5 s). */
  connectTimeoutMs?: number;
  /** Server-side statement_timeout, and the client's own wait for an answer (default 15 s). */
  statementTimeoutMs?: number;
  /** Told to the server (pg_stat_activity.application_name). */
  applicationName?: string;
  /** Called with errors of idle connections (the server went away between queries). */
  onIdleError?: (error: Error) => void;
}

/** What a statement runs on: the pool (any free connection) or one transaction's connection. */
export interface Queryable {
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
}

/** SQLSTATE classes and codes that mean "the server is unreachable, going away or overloaded", not a bad query. */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0)|^57014$/;
const UNAVAILABLE_ERRNO = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connection (?:is )?closed/i;

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_ERRNO.has(code)))
    return true;
  if (error instanceof AggregateError) return error.errors.some(isUnavailable);
  return UNAVAILABLE_MESSAGE.test(error.message);
}

/** Rethrows an outage as StoreUnavailableError; anything else unchanged. */
export function translate(error: unknown): never {
  if (error instanceof StoreUnavailableError) throw error;
  if (isUnavailable(error)) {
    throw new StoreUnavailableError('PostgreSQL', (error as Error).message || 'no answer', { cause: error });
  }
  throw error;
}

export class PgDatabase implements Queryable {
  readonly pool: pg.Pool;

  constructor(settings: PgPoolSettings) {
    const statementTimeoutMs = settings.statementTimeoutMs ?? 15_000;
    this.pool = new pg.Pool({
      connectionString: settings.url,
      max: settings.maxConnections ?? 10,
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: 30_000,
      statement_timeout: statementTimeoutMs,
      // The client gives up a little after the server would have cancelled: a server that stopped answering.
      query_timeout: statementTimeoutMs + 2_000,
      idle_in_transaction_session_timeout: statementTimeoutMs * 2,
      application_name: settings.applicationName ?? 'deckforge',
      keepAlive: true,
    });
    // A connection that breaks while idle (server restart, pg_terminate_backend) must not crash the process.
    this.pool.on('error', (error) => settings.onIdleError?.(error));
  }

  async query<R extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(sql, params);
    } catch (error) {
      translate(error);
    }
  }

  /** Runs `work` in one transaction on one connection; rolled back when it throws. */
  async transaction<T>(work: (client: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      translate(error);
    }
    let broken: Error | undefined;
    // A checked-out connection has no listener of its own: one that breaks between two statements would
    // otherwise emit an unhandled 'error' and end the process. Noted here, it fails the transaction instead.
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isUnavailable(error)) broken ??= error as Error;
      else if (!broken)
        await client.query('ROLLBACK').catch((rollbackError: unknown) => (broken = rollbackError as Error));
      // A statement that failed because the connection broke reports the break, not its own symptom.
      translate(broken && isUnavailable(broken) ? broken : error);
    } finally {
      client.removeListener('error', onError);
      // A broken connection is discarded, not returned to the pool.
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/** ISO 8601 of a timestamptz column (null stays null). */
export function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

export function isoOf(value: Date): string {
  return value.toISOString();
}
