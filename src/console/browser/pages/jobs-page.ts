/** The account's recent jobs: state, slides, times, error, warnings and a download link while the file exists. */
import { getJson } from '../console-api.js';
import { el } from '../dom-builder.js';
import { formatCount, formatDate } from '../display-format.js';

export interface JobRow {
  jobId: string;
  state: string;
  slideCount: number | null;
  submittedAt: string;
  finishedAt: string | null;
  errorMessage: string | null;
  warnings: unknown[] | null;
  downloadUrl: string | null;
  /** While PROCESSING, how far the job is. */
  progress?: { slidesDone: number; slidesTotal: number; pagesRendered: number | null } | null;
}

/** The deck's slides once done; while it is built, how far it is ("120 of 2,000 written"). */
function slidesText(job: JobRow): string {
  if (job.slideCount !== null) return String(job.slideCount);
  const progress = job.progress;
  if (!progress) return '—';
  const pages =
    progress.pagesRendered === null ? '' : `, ${formatCount(progress.pagesRendered)} pages rendered`;
  return `${formatCount(progress.slidesDone)} of ${formatCount(progress.slidesTotal)} written${pages}`;
}

export function warningText(warning: unknown): string {
  if (typeof warning === 'string') return warning;
  if (warning && typeof warning === 'object') {
    const w = warning as Record<string, unknown>;
    const path = typeof w.path === 'string' ? `${w.path}: ` : '';
    if (typeof w.message === 'string') return path + w.message;
  }
  return JSON.stringify(warning);
}

export function jobRow(job: JobRow): HTMLTableRowElement {
  const warnings = job.warnings ?? [];
  return el(
    'tr',
    { 'data-job-id': job.jobId },
    el('td', { 'data-label': 'Job', class: 'mono' }, job.jobId),
    el(
      'td',
      { 'data-label': 'State' },
      el('span', { class: `state state-${job.state.toLowerCase()}` }, job.state),
    ),
    el('td', { 'data-label': 'Slides' }, slidesText(job)),
    el('td', { 'data-label': 'Submitted' }, formatDate(job.submittedAt)),
    el('td', { 'data-label': 'Finished' }, formatDate(job.finishedAt)),
    el(
      'td',
      { 'data-label': 'Outcome' },
      job.errorMessage ? el('p', { class: 'error-text' }, job.errorMessage) : null,
      warnings.length > 0
        ? el(
            'details',
            {},
            el('summary', {}, `${warnings.length} warning${warnings.length === 1 ? '' : 's'}`),
            el('ul', {}, ...warnings.map((w) => el('li', {}, warningText(w)))),
          )
        : null,
      job.downloadUrl
        ? el('a', { href: job.downloadUrl, download: '', class: 'download' }, 'Download')
        : null,
    ),
  );
}

export function jobsTable(jobs: JobRow[]): HTMLElement {
  return el(
    'table',
    { class: 'rows' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Job', 'State', 'Slides', 'Submitted', 'Finished', 'Outcome'].map((h) => el('th', {}, h)),
      ),
    ),
    el('tbody', {}, ...jobs.map(jobRow)),
  );
}

export async function renderJobs(main: HTMLElement): Promise<void> {
  const { jobs } = await getJson<{ jobs: JobRow[] }>('/console/api/jobs');
  const refresh = el('button', { type: 'button', class: 'secondary' }, 'Refresh');
  const holder = el(
    'div',
    {},
    jobs.length > 0
      ? jobsTable(jobs)
      : el('p', { class: 'muted' }, 'No jobs yet. Submit one from the playground.'),
  );
  refresh.addEventListener('click', () => {
    void getJson<{ jobs: JobRow[] }>('/console/api/jobs').then(({ jobs: fresh }) =>
      holder.replaceChildren(
        fresh.length > 0 ? jobsTable(fresh) : el('p', { class: 'muted' }, 'No jobs yet.'),
      ),
    );
  });
  main.append(refresh, holder);
}
