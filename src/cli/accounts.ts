/**
 * `deckforge accounts create|list|set-plan|rotate-key|webhook-secret|disable|enable|delete`: works on the same data directory as `serve`, also while
 * it runs (SQLite WAL + busy_timeout). Passwords and keys are printed once and never logged.
 */
import { ConfigError, loadConfig } from '../config/index.js';
import { isStoreNotReady, openAccountAdmin } from '../composition/index.js';
import type { AccountAdmin } from '../service/accounts/account-admin.js';
import { ServiceError } from '../service/errors.js';
import type { CommandIo } from './command-io.js';

const USAGE = `Usage:
  deckforge accounts create --email E [--password P] [--plan NAME] [--json]
  deckforge accounts set-plan --email E --plan NAME [--json]
  deckforge accounts list [--json]
  deckforge accounts rotate-key --email E [--json]
  deckforge accounts webhook-secret --email E [--json]
  deckforge accounts disable --email E [--json]
  deckforge accounts enable --email E [--json]
  deckforge accounts delete --email E --yes [--json]

disable: no sign-in, no new token, its tokens refused at once, its console sessions ended.
delete: the account, its jobs and stored files, tokens, sessions and usage; it cannot be undone,
hence --yes.

Works on DECKFORGE_DATABASE_URL when set, else on the SQLite file in DECKFORGE_DATA_DIR (default ./data of
the current folder), also while 'deckforge serve' runs; says which on standard error. Only 'create' starts a
new database; the others refuse a data directory that has none.
`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `--name value` and `--flag` options; anything else is a usage error. */
export function parseOptions(
  args: string[],
  valued: readonly string[],
  flags: readonly string[],
): { values: Map<string, string>; flags: Set<string> } {
  const values = new Map<string, string>();
  const set = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [name, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    if (valued.includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      values.set(name, value);
    } else if (flags.includes(name) && inline === undefined) {
      set.add(name);
    } else {
      throw new UsageError(`unknown option "${arg}"`);
    }
  }
  return { values, flags: set };
}

function required(values: Map<string, string>, name: string): string {
  const value = values.get(name);
  if (value === undefined || value.trim() === '') throw new UsageError(`${name} is required`);
  return value;
}

function print(io: CommandIo, json: boolean, value: object, lines: string[]): void {
  io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : `${lines.join('\n')}\n`);
}

export async function runAccounts(args: string[], io: CommandIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(USAGE);
    return sub === undefined ? 2 : 0;
  }
  let store: Awaited<ReturnType<typeof openAccountAdmin>> | null = null;
  try {
    const config = loadConfig();
    // Every command but `create` works on accounts that must already exist: it never makes an empty database.
    const open = async (): Promise<AccountAdmin> => {
      store = await openAccountAdmin(config, { existingData: sub !== 'create' });
      io.stderr(`Accounts in ${store.description}\n`);
      return store.admin;
    };
    switch (sub) {
      case 'create': {
        const o = parseOptions(rest, ['--email', '--password', '--plan'], ['--json']);
        const password = o.values.get('--password');
        const plan = o.values.get('--plan');
        const created = await (
          await open()
        ).create({
          email: required(o.values, '--email'),
          ...(password !== undefined ? { password } : {}),
          ...(plan !== undefined ? { plan } : {}),
        });
        print(io, o.flags.has('--json'), created, [
          'Account created. The password and security key are shown only now: keep them.',
          `  e-mail:       ${created.email}`,
          `  password:     ${created.password}`,
          `  security key: ${created.key}`,
          `  plan:         ${created.plan}`,
        ]);
        return 0;
      }
      case 'set-plan': {
        const o = parseOptions(rest, ['--email', '--plan'], ['--json']);
        const updated = await (
          await open()
        ).setPlan(required(o.values, '--email'), required(o.values, '--plan'));
        print(io, o.flags.has('--json'), updated, [`${updated.email} is now on plan ${updated.plan}.`]);
        return 0;
      }
      case 'list': {
        const o = parseOptions(rest, [], ['--json']);
        const accounts = await (await open()).list();
        const lines =
          accounts.length === 0
            ? ['No accounts.']
            : accounts.map(
                (a) =>
                  `${a.email}\t${a.plan}\tsubscribed ${a.subscriptionStart.slice(0, 10)}` +
                  (a.disabledAt !== null ? '\tdisabled' : a.emailConfirmedAt === null ? '\tunconfirmed' : ''),
              );
        print(io, o.flags.has('--json'), accounts, lines);
        return 0;
      }
      case 'rotate-key': {
        const o = parseOptions(rest, ['--email'], ['--json']);
        const rotated = await (await open()).rotateKey(required(o.values, '--email'));
        print(io, o.flags.has('--json'), rotated, [
          `New security key for ${rotated.email} (shown only now): ${rotated.key}`,
          `${rotated.revokedTokens} token(s) revoked.`,
        ]);
        return 0;
      }
      case 'webhook-secret': {
        const o = parseOptions(rest, ['--email'], ['--json']);
        const rotated = await (await open()).rotateWebhookSecret(required(o.values, '--email'));
        print(io, o.flags.has('--json'), rotated, [
          `Webhook signing secret for ${rotated.email} (shown only now): ${rotated.webhookSecret}`,
          'It replaces any earlier secret at once.',
        ]);
        return 0;
      }
      case 'disable': {
        const o = parseOptions(rest, ['--email'], ['--json']);
        const disabled = await (await open()).disable(required(o.values, '--email'));
        print(io, o.flags.has('--json'), disabled, [
          `${disabled.email} is disabled: its tokens are refused and ${disabled.endedSessions} console session(s) ended.`,
          `'deckforge accounts enable --email ${disabled.email}' undoes it.`,
        ]);
        return 0;
      }
      case 'enable': {
        const o = parseOptions(rest, ['--email'], ['--json']);
        const enabled = await (await open()).enable(required(o.values, '--email'));
        print(io, o.flags.has('--json'), enabled, [`${enabled.email} is enabled again.`]);
        return 0;
      }
      case 'delete': {
        const o = parseOptions(rest, ['--email'], ['--json', '--yes']);
        const email = required(o.values, '--email');
        if (!o.flags.has('--yes')) {
          throw new UsageError(
            `deleting ${email} removes its jobs, files, tokens and usage for good: add --yes to do it`,
          );
        }
        const deleted = await (await open()).delete(email);
        print(io, o.flags.has('--json'), deleted, [
          `${deleted.email} is deleted, with its ${deleted.deletedJobs} job(s) and their files.`,
        ]);
        return 0;
      }
      default:
        throw new UsageError(`unknown accounts command "${sub}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`deckforge accounts: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof ServiceError ||
      isAccountExists(error) ||
      isStoreNotReady(error)
    ) {
      io.stderr(`deckforge accounts: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await (store as Awaited<ReturnType<typeof openAccountAdmin>> | null)?.close();
  }
}

function isAccountExists(error: unknown): boolean {
  return error instanceof Error && error.name === 'AccountExistsError';
}
