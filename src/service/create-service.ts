/**
 * Builds the DeckforgeService facade from ports: each method hands its call to the use case of its room. The
 * composition root (src/composition) supplies the adapters; the job consumer and the retention sweeper are
 * started by whoever runs jobs (`serve`, `worker`).
 */
import type { DeckforgeService } from './deckforge-service.js';
import { createToken, listTokens, revokeToken } from './accounts/account-tokens.js';
import { authenticate, issueToken } from './accounts/issue-token.js';
import { SignInGuard } from './accounts/sign-in-guard.js';
import { createConsoleService } from './create-console-service.js';
import { AccountGate } from './generation/account-gate.js';
import { generateNowOnce } from './generation/generate-now.js';
import { inspectTemplate } from './generation/inspect-template.js';
import { renderUpload } from './generation/render-upload.js';
import { previewsStatus, slidePictures } from './generation/slide-pictures.js';
import { jobSummary, listJobs } from './jobs/job-listing.js';
import { jobStatus, openDownload } from './jobs/job-status.js';
import { submitJobOnce } from './jobs/submit-job.js';
import { generateStored } from './jobs/generate-stored.js';
import { previewSlides } from './jobs/preview-slides.js';
import { checkDeck } from './generation/check-deck.js';
import { createTemplateService } from './templates/create-template-service.js';
import type { ServiceDeps } from './service-deps.js';
import { serviceHealth, serviceStats } from './service-status.js';
import { checkRateLimit, recordApiCall } from './usage/api-calls.js';
import { checkSlidesLeft } from './usage/slide-quota.js';
import { usageDetail } from './usage/usage-detail.js';
import { usageReport } from './usage/usage-report.js';

export function createDeckforgeService(
  deps: ServiceDeps,
  onClose: () => Promise<void> = async () => {},
): DeckforgeService {
  const signIns = new SignInGuard(deps.rateLimiter);
  const syncGenerations = new AccountGate(deps.settings.limits.syncGenerationsPerAccount);

  return {
    issueToken: (credentials, origin) => issueToken(deps, signIns, credentials, origin),
    authenticate: (token) => authenticate(deps, token),
    checkRateLimit: (account) => checkRateLimit(deps, account),
    checkSlidesLeft: (account) => checkSlidesLeft(deps, account),
    recordApiCall: async (account, succeeded) => recordApiCall(deps, account, succeeded),
    generateNow: (account, request) => generateNowOnce(deps, account, request, syncGenerations),
    generateStored: (account, request, baseUrl) =>
      generateStored(deps, account, request, syncGenerations, baseUrl),
    checkDeck: (account, request) => checkDeck(deps, account, request, syncGenerations),
    previewSlides: (account, source, slides, longSide) =>
      previewSlides(deps, account, source, slides, longSide),
    submitJob: (account, request) => submitJobOnce(deps, account, request),
    jobStatus: (account, jobId, baseUrl) => jobStatus(deps, account, jobId, baseUrl),
    openDownload: (signedPath) => openDownload(deps, signedPath),
    usage: (account) => usageReport(deps, account),
    usageDetail: (account) => usageDetail(deps, account),
    listTokens: (account) => listTokens(deps, account),
    createToken: (account, name) => createToken(deps, account, name),
    revokeToken: (account, tokenId) => revokeToken(deps, account, tokenId),
    listJobs: (account, baseUrl) => listJobs(deps, account, baseUrl),
    jobSummary: (account, jobId, baseUrl) => jobSummary(deps, account, jobId, baseUrl),
    render: (account, upload) => renderUpload(deps, account, upload),
    inspectTemplate: (account, source) => inspectTemplate(deps, account, source),
    slidePictures: (account, source, options) => slidePictures(deps, account, source, options),
    previewsStatus: () => previewsStatus(deps),
    templates: createTemplateService(deps),
    stats: () => serviceStats(deps),
    health: () => serviceHealth(deps),
    console: createConsoleService(deps, signIns),
    close: onClose,
  };
}
