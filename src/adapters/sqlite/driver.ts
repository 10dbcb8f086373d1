/**
 * The SQLite driver for the Node line that runs us. Both are better-sqlite3, with one API:
 * - on Node 22 and later, version 13 (`better-sqlite3-13`), a Node-API build that ships ready to load: version 12's
 *   statements abort the process (`RemoveEnvironmentCleanupHook`, "(env) != nullptr") when Node 24.19 or later
 *   collects them, at any moment after a write and at every exit;
 * - on Node 20, version 12 (`better-sqlite3`, compiled at install), since 13 does not load there.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The package name of the driver for this Node line (also what a child process of a test requires). */
export const SQLITE_DRIVER = NODE_MAJOR >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

/** better-sqlite3's Database class, from the driver for this Node line. */
export const Database = createRequire(import.meta.url)(SQLITE_DRIVER) as typeof BetterSqlite3;
