/**
 * A real runtime for service tests: SQLite file and blobs in a fresh temporary data directory, the worker-thread
 * pool running the real engine, the in-process consumer with short polls and leases, and a clock the test moves.
 */
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/composition/index.js';
import { configWith, parsePlanCatalog, type Config, type Plan } from '../../src/config/index.js';
import type { Account, DeckforgeService } from '../../src/service/deckforge-service.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { layoutsTemplate } from '../support/decks/layouts-template.js';
import { tempDir } from '../support/servers/temp-dir.js';
import { testPasswordHasher } from '../support/servers/test-password-hasher.js';

/** The project's own layouts.pptx (support/decks/layouts-template.ts): slide 0 has "Title 1" and "Subtitle 2". */
export const TEMPLATE_NAME = 'layouts.pptx';
export const templateBytes = layoutsTemplate;

export function deck(
  slides: number,
  extra: Record<string, unknown> = {},
): { presentation: Record<string, unknown> } {
  return {
    presentation: {
      template: TEMPLATE_NAME,
      export_version: 'Pptx2019',
      slides: Array.from({ length: slides }, (_, i) => ({
        type: 'slide',
        slide_index: 0,
        shapes: [{ name: 'Title 1', content: `Slide ${i + 1}` }],
      })),
      ...extra,
    },
  };
}

export function upload(payload: unknown, files = [{ name: TEMPLATE_NAME, bytes: templateBytes() }]) {
  return { jsonData: JSON.stringify(payload), files };
}

export class ManualClock {
  constructor(public current = new Date('2026-11-21T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface Harness {
  runtime: Runtime;
  service: DeckforgeService;
  config: Readonly<Config>;
  clock: ManualClock;
  dataDir: string;
  signUp(
    plan?: string,
  ): Promise<{ account: Account; email: string; password: string; key: string; token: string }>;
  close(): Promise<void>;
}

export const TEST_PLANS: Plan[] = [
  { name: 'Free', allowedSlideCount: 100, requestsPerMinute: 1000 },
  { name: 'Tiny', allowedSlideCount: 10, requestsPerMinute: 1000 },
  { name: 'Slow', allowedSlideCount: 100, requestsPerMinute: 3 },
];

export async function startHarness(
  options: {
    plans?: Plan[];
    overrides?: Parameters<typeof configWith>[0];
    runtime?: RuntimeOptions;
    dataDir?: string;
    clock?: ManualClock;
  } = {},
): Promise<Harness> {
  const dir = options.dataDir ? null : tempDir('deckforge-service-');
  const dataDir = options.dataDir ?? dir?.path ?? '';
  const clock = options.clock ?? new ManualClock();
  const config = configWith({
    dataDir,
    workers: 2,
    plans: parsePlanCatalog({ plans: options.plans ?? TEST_PLANS }, 'test'),
    logLevel: 'silent',
    ...options.overrides,
  });
  const runtime = await createRuntime(config, {
    clock,
    hasher: testPasswordHasher,
    consumer: { pollMs: 50, leaseMs: 1000, recoverEveryMs: 200 },
    sweepEveryMs: 60_000,
    ...options.runtime,
  });
  return {
    runtime,
    service: runtime.service,
    config,
    clock,
    dataDir,
    async signUp(plan) {
      const created = await runtime.admin.create({
        email: `user-${Math.random().toString(36).slice(2, 10)}@example.test`,
        ...(plan ? { plan } : {}),
      });
      const issued = await runtime.service.issueToken({
        username: created.email,
        password: created.password,
        key: created.key,
      });
      const account = await runtime.service.authenticate(issued.accessToken);
      return {
        account,
        email: created.email,
        password: created.password,
        key: created.key,
        token: issued.accessToken,
      };
    },
    async close() {
      await runtime.close();
      dir?.remove();
    },
  };
}

/** Polls the job until it is final (or the time is up). */
export async function waitForJob(
  service: DeckforgeService,
  account: Account,
  jobId: string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await service.jobStatus(account, jobId, 'http://127.0.0.1:8080');
    if (status.status === 'SUCCEEDED' || status.status === 'FAILED') return status;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The path and query of a download link: what DeckforgeService.openDownload takes. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

/** Downloads a succeeded job's deck and runs it through the package-invariant check and the validator. */
export async function expectValidJobDeck(
  service: DeckforgeService,
  status: { fileUrl: string | null },
): Promise<void> {
  const download = await service.openDownload(pathOf(status.fileUrl ?? ''));
  await expectValidPptx(await download.content.bytes(), templateBytes());
}
