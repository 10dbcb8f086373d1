/**
 * Account management for `deckforge accounts …` and the first start: create (password generated when not given,
 * security key always generated and shown once), list, set plan, rotate key (which revokes every token).
 */
import { randomUUID } from 'node:crypto';
import { findPlan, type PlanCatalog } from '../config/plans.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import type {
  AccountRecord,
  AccountStore,
  Clock,
  PasswordHasher,
  TokenStore,
  WebhookStore,
} from './ports/index.js';
import { newPassword, newSecurityKey, sha256Hex } from './secrets.js';
import { newWebhookSecret } from './webhook-delivery.js';

export interface AccountAdminDeps {
  accounts: AccountStore;
  tokens: TokenStore;
  webhooks: WebhookStore;
  hasher: PasswordHasher;
  clock: Clock;
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
    return (await this.deps.accounts.list()).map((a) => ({
      email: a.email,
      plan: a.plan,
      subscriptionStart: a.subscriptionStart,
      createdAt: a.createdAt,
    }));
  }

  async setPlan(email: string, planName: string): Promise<AccountSummary> {
    const record = await this.find(email);
    const plan = this.plan(planName);
    await this.deps.accounts.setPlan(record.id, plan);
    return {
      email: record.email,
      plan,
      subscriptionStart: record.subscriptionStart,
      createdAt: record.createdAt,
    };
  }

  /** New security key; every token of the account stops working. */
  async rotateKey(email: string): Promise<{ email: string; key: string; revokedTokens: number }> {
    const record = await this.find(email);
    const key = newSecurityKey();
    await this.deps.accounts.setKeyHash(record.id, sha256Hex(key), this.deps.clock.now().toISOString());
    const revokedTokens = await this.deps.tokens.revokeAll(record.id);
    return { email: record.email, key, revokedTokens };
  }

  /** A new webhook signing secret (the first, or replacing the old one at once); shown only now. */
  async rotateWebhookSecret(email: string): Promise<{ email: string; webhookSecret: string }> {
    const record = await this.find(email);
    const webhookSecret = newWebhookSecret();
    await this.deps.webhooks.setSecret(record.id, webhookSecret, this.deps.clock.now());
    return { email: record.email, webhookSecret };
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
