/**
 * Plans are configuration: a name, a monthly slide allowance and a request rate. They come from the
 * JSON file named by DECKFORGE_PLANS or from the built-in defaults below; a missing `default` means the first plan,
 * a missing `firstAccount` (the plan of the account the first start creates) means the default plan.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './config-error.js';

export interface Plan {
  name: string;
  /** Slides per monthly period. */
  allowedSlideCount: number;
  /** API calls per account per minute. */
  requestsPerMinute: number;
  /** Stored templates (names; their versions count once); TEMPLATE_LIMIT_DEFAULTS when absent. */
  storedTemplates?: number;
  /** Megabytes the stored templates may take (each distinct content once); TEMPLATE_LIMIT_DEFAULTS when absent. */
  storedTemplateMegabytes?: number;
}

/** The stored-template limits of a plan that names none. */
export const TEMPLATE_LIMIT_DEFAULTS = { storedTemplates: 20, storedTemplateMegabytes: 200 } as const;

export interface PlanCatalog {
  /** Name of the plan new accounts get. */
  defaultPlan: string;
  /** Name of the plan of the account the first start creates: the operator's own. */
  firstAccountPlan: string;
  plans: readonly Plan[];
}

export const BUILT_IN_PLANS: PlanCatalog = {
  defaultPlan: 'Free',
  firstAccountPlan: 'Operator',
  plans: [
    {
      name: 'Free',
      allowedSlideCount: 100,
      requestsPerMinute: 60,
      storedTemplates: 5,
      storedTemplateMegabytes: 50,
    },
    {
      name: 'Starter',
      allowedSlideCount: 1_000,
      requestsPerMinute: 120,
      storedTemplates: 20,
      storedTemplateMegabytes: 200,
    },
    {
      name: 'Business',
      allowedSlideCount: 10_000,
      requestsPerMinute: 600,
      storedTemplates: 100,
      storedTemplateMegabytes: 1_000,
    },
    {
      name: 'Enterprise',
      allowedSlideCount: 100_000,
      requestsPerMinute: 3_000,
      storedTemplates: 1_000,
      storedTemplateMegabytes: 10_000,
    },
    // For whoever runs the server: their own machine puts no allowance of ours in their way.
    {
      name: 'Operator',
      allowedSlideCount: 1_000_000_000,
      requestsPerMinute: 100_000,
      storedTemplates: 1_000_000,
      storedTemplateMegabytes: 1_000_000,
    },
  ],
};

const planSchema = z.object({
  name: z.string().trim().min(1),
  allowedSlideCount: z.number().int().min(0),
  requestsPerMinute: z.number().int().min(1),
  storedTemplates: z.number().int().min(0).optional(),
  storedTemplateMegabytes: z.number().min(0).optional(),
});

const catalogSchema = z.object({
  default: z.string().optional(),
  firstAccount: z.string().optional(),
  plans: z.array(planSchema).min(1),
});

/** Validates a parsed plans document; `source` names it in error messages. */
export function parsePlanCatalog(json: unknown, source: string): PlanCatalog {
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw new ConfigError(`DECKFORGE_PLANS (${source}): ${issue?.message ?? 'invalid'}${where}`);
  }
  const names = new Set<string>();
  for (const plan of parsed.data.plans) {
    if (names.has(plan.name))
      throw new ConfigError(`DECKFORGE_PLANS (${source}): plan "${plan.name}" is defined twice`);
    names.add(plan.name);
  }
  const first = parsed.data.plans[0];
  const defaultPlan = parsed.data.default ?? first?.name ?? '';
  if (!names.has(defaultPlan)) {
    throw new ConfigError(
      `DECKFORGE_PLANS (${source}): default plan "${defaultPlan}" is not among the plans`,
    );
  }
  const firstAccountPlan = parsed.data.firstAccount ?? defaultPlan;
  if (!names.has(firstAccountPlan)) {
    throw new ConfigError(
      `DECKFORGE_PLANS (${source}): firstAccount plan "${firstAccountPlan}" is not among the plans`,
    );
  }
  return {
    defaultPlan,
    firstAccountPlan,
    plans: parsed.data.plans.map((p) => Object.freeze({ ...p })),
  };
}

export function loadPlanCatalog(path: string | undefined): PlanCatalog {
  if (!path) return BUILT_IN_PLANS;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`DECKFORGE_PLANS: cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`DECKFORGE_PLANS: ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parsePlanCatalog(json, path);
}

/** Case-insensitive lookup, so `--plan free` finds "Free". */
export function findPlan(catalog: PlanCatalog, name: string): Plan | undefined {
  const wanted = name.trim().toLowerCase();
  return catalog.plans.find((p) => p.name.toLowerCase() === wanted);
}
