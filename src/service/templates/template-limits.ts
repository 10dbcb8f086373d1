/**
 * The plan's stored-template limits (docs/http-api.md, "Stored templates"): how many named templates an account
 * keeps and how many bytes they take, each distinct content counted once. Checked before a new version is stored;
 * two uploads at the same moment may both pass the check and go over by one.
 */
import { TEMPLATE_LIMIT_DEFAULTS } from '../../config/plans.js';
import { ForbiddenError } from '../errors.js';
import type { ServiceDeps } from '../service-deps.js';
import { planOf } from '../usage/account-plans.js';
import type { TemplateOwner } from './template-service.js';

const MB = 1024 * 1024;

/** Throws ForbiddenError (403) when storing the upload would take the account past its plan's limits. */
export async function checkRoomForTemplate(
  deps: ServiceDeps,
  account: TemplateOwner,
  upload: { newName: boolean; newContent: boolean; bytes: number },
): Promise<void> {
  const plan = planOf(deps, account);
  const maxTemplates = plan.storedTemplates ?? TEMPLATE_LIMIT_DEFAULTS.storedTemplates;
  const maxMegabytes = plan.storedTemplateMegabytes ?? TEMPLATE_LIMIT_DEFAULTS.storedTemplateMegabytes;
  const held = await deps.templates.holdings(account.id);
  if (upload.newName && held.templates + 1 > maxTemplates) {
    throw new ForbiddenError(
      `the ${plan.name} plan keeps at most ${maxTemplates} stored templates and the account has ${held.templates}: ` +
        'delete one (DELETE /v1.0/templates/{id}) or upload this one as a new version of an existing name',
    );
  }
  if (upload.newContent && held.bytes + upload.bytes > maxMegabytes * MB) {
    throw new ForbiddenError(
      `the ${plan.name} plan keeps at most ${maxMegabytes} MB of stored templates; the account's take ` +
        `${megabytes(held.bytes)} MB and this one ${megabytes(upload.bytes)} MB: delete templates to make room`,
    );
  }
}

function megabytes(bytes: number): string {
  return (Math.round((bytes / MB) * 10) / 10).toString();
}
