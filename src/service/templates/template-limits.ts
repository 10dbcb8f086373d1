/**
 * The plan's stored-template limits (docs/http-api.md, "Stored templates"): how many named templates an account
 * keeps and how many bytes they take, each distinct content counted once. Checked twice: before the upload is
 * parsed (a refusal costs no parse), and for good by the store in the same atomic step as its insert
 * (TemplateStore.addVersion with limits), so uploads at the same moment, on one node or several, never take the
 * account past them together.
 */
import { TEMPLATE_LIMIT_DEFAULTS } from '../../config/plans.js';
import { ForbiddenError } from '../errors.js';
import {
  limitExceeded,
  TemplateLimitError,
  type TemplateAddition,
  type TemplateHoldings,
  type TemplateLimits,
} from '../ports/index.js';
import type { ServiceDeps } from '../service-deps.js';
import { planOf } from '../usage/account-plans.js';
import type { TemplateOwner } from '../template-service.js';

const MB = 1024 * 1024;

export function templateLimitsOf(deps: ServiceDeps, account: TemplateOwner): TemplateLimits {
  const plan = planOf(deps, account);
  return {
    templates: plan.storedTemplates ?? TEMPLATE_LIMIT_DEFAULTS.storedTemplates,
    bytes: (plan.storedTemplateMegabytes ?? TEMPLATE_LIMIT_DEFAULTS.storedTemplateMegabytes) * MB,
  };
}

/** Throws ForbiddenError (403) when storing the upload would take the account past its plan's limits. */
export async function checkRoomForTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  upload: TemplateAddition,
): Promise<void> {
  const held = await deps.templates.holdings(account.id);
  const refused = limitExceeded(held, upload, templateLimitsOf(deps, account));
  if (refused) throw limitRefusal(deps, account, refused, held, upload.bytes);
}

/** The store's own refusal (TemplateLimitError) as the same 403; any other error as it is. */
export function asLimitRefusal(
  deps: ServiceDeps,
  account: TemplateOwner,
  error: unknown,
  bytes: number,
): unknown {
  return error instanceof TemplateLimitError
    ? limitRefusal(deps, account, error.limit, error.held, bytes)
    : error;
}

function limitRefusal(
  deps: ServiceDeps,
  account: TemplateOwner,
  limit: keyof TemplateLimits,
  held: TemplateHoldings,
  bytes: number,
): ForbiddenError {
  const plan = planOf(deps, account);
  const limits = templateLimitsOf(deps, account);
  if (limit === 'templates') {
    return new ForbiddenError(
      `the ${plan.name} plan keeps at most ${limits.templates} stored templates and the account has ${held.templates}: ` +
        'delete one (DELETE /v1.0/templates/{id}) or upload this one as a new version of an existing name',
      'TEMPLATE_LIMIT',
    );
  }
  return new ForbiddenError(
    `the ${plan.name} plan keeps at most ${limits.bytes / MB} MB of stored templates; the account's take ` +
      `${megabytes(held.bytes)} MB and this one ${megabytes(bytes)} MB: delete templates to make room`,
    'TEMPLATE_LIMIT',
  );
}

function megabytes(bytes: number): string {
  return (Math.round((bytes / MB) * 10) / 10).toString();
}
