/**
 * Account management for `deckforge accounts …` and the first start: create (password generated when not given,
 * security key always generated and shown once), list, set plan, rotate key (which revokes every token),
 * disable, enable and delete.
 */
import { randomUUID } from 'node:crypto';
import { findPlan, type PlanCatalog } from '../../config/plans.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { deleteAccount, disableAccount, type AccountRemovalDeps } from './delete-account.js';
import type { AccountRecord, PasswordHasher } from '../ports/index.js';
import { newPassword, newSecurityKey, sha256Hex } from './secrets.js';
import { replaceSecurityKey } from './security-key.js';
import { newWebhookSecret } from '../jobs/webhook-delivery.js';

export interface AccountAdminDeps extends AccountRemovalDeps {
  hasher: PasswordHasher;
  plans: PlanCatalog;
}

/** Shown once: the only moment the password and key exist in clear. */
export interface CreatedAccount {
  email: string;
  password: string;
  key: string;
  plan: string;
  subscriptionStart: string;
}

export interface AccountSummary {
  email: string;
  plan: string;
  subscriptionStart: string;
  createdAt: string;
  /** The states the console adds: null while not so. */
  emailConfirmedAt: string | null;
  disabledAt: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class AccountAdmin {
  constructor(private readonly deps: AccountAdminDeps) {}

  async create(input: { email: string; password?: string; plan?: string }): Promise<CreatedAccount> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw new InvalidInputError(`"${input.email}" is not an e-mail address`);
    if (input.password !== undefined && input.password.length < 8) {
      throw new InvalidInputError('the password must be at least 8 characters long');
    }
    const plan = this.plan(input.plan ?? this.deps.plans.defaultPlan);
    const password = input.password ?? newPassword();
    const key = newSecurityKey();
    const now = this.deps.clock.now().toISOString();
    await this.deps.accounts.create({
      id: randomUUID(),
      email,
      passwordHash: await this.deps.hasher.hash(password),
      keyHash: sha256Hex(key),
      plan,
      subscriptionStart: now,
      createdAt: now,
      // An operator made it: the address needs no confirmation link.
      emailConfirmedAt: now,
      disabledAt: null,
      passwordChangedAt: null,
      keyCreatedAt: now,
    });
    return { email, password, key, plan, subscriptionStart: now };
  }

  /** Creates the first account when there is none; null when accounts exist already. */
  async ensureFirstAccount(email = 'admin@deckforge.local'): Promise<CreatedAccount | null> {
    if ((await this.deps.accounts.count()) > 0) return null;
    try {
      return await this.create({ email, plan: this.deps.plans.firstAccountPlan });
    } catch (error) {
      // Another process (a second `serve`, or `accounts create`) won the race: fine.
      if ((await this.deps.accounts.count()) > 0) return null;
      throw error;
    }
  }

  async list(): Promise<AccountSummary[]> {
    return (await this.deps.accounts.list()).map(summary);
  }

  async setPlan(email: string, planName: string): Promise<AccountSummary> {
    const record = await this.find(email);
    const plan = this.plan(planName);
    await this.deps.accounts.setPlan(record.id, plan);
    return summary({ ...record, plan });
  }

  /** New security key; every token of the account stops working. */
  async rotateKey(email: string): Promise<{ email: string; key: string; revokedTokens: number }> {
    const record = await this.find(email);
    const key = newSecurityKey();
    const revokedTokens = await replaceSecurityKey(this.deps, record.id, key);
    return { email: record.email, key, revokedTokens };
  }

  /** A new webhook signing secret (the first, or replacing the old one at once); shown only now. */
  async rotateWebhookSecret(email: string): Promise<{ email: string; webhookSecret: string }> {
    const record = await this.find(email);
    const webhookSecret = newWebhookSecret();
    await this.deps.webhooks.setSecret(record.id, webhookSecret, this.deps.clock.now());
    return { email: record.email, webhookSecret };
  }

  /** No sign-in, no new token, its tokens refused at once, its console sessions ended. */
  async disable(email: string): Promise<{ email: string; disabledAt: string; endedSessions: number }> {
    const record = await this.find(email);
    const { endedSessions } = await disableAccount(this.deps, record);
    const after = await this.find(email);
    return { email: record.email, disabledAt: after.disabledAt ?? '', endedSessions };
  }

  async enable(email: string): Promise<{ email: string }> {
    const record = await this.find(email);
    await this.deps.accounts.setDisabled(record.id, null);
    return { email: record.email };
  }

  /** The account and everything kept for it: jobs and their files, tokens, sessions, usage. */
  async delete(email: string): Promise<{ email: string; deletedJobs: number }> {
    const record = await this.find(email);
    const { deletedJobs } = await deleteAccount(this.deps, record);
    return { email: record.email, deletedJobs };
  }

  private async find(email: string): Promise<AccountRecord> {
    const record = await this.deps.accounts.findByEmail(email);
    if (!record) throw new NotFoundError(`no account with e-mail ${email.trim().toLowerCase()}`);
    return record;
  }

  private plan(name: string): string {
    const plan = findPlan(this.deps.plans, name);
    if (!plan) {
      const known = this.deps.plans.plans.map((p) => p.name).join(', ');
      throw new InvalidInputError(`no plan named "${name}"; configured plans: ${known}`);
    }
    return plan.name;
  }
}

function summary(a: AccountRecord): AccountSummary {
  return {
    email: a.email,
    plan: a.plan,
    subscriptionStart: a.subscriptionStart,
    createdAt: a.createdAt,
    emailConfirmedAt: a.emailConfirmedAt,
    disabledAt: a.disabledAt,
  };
}
