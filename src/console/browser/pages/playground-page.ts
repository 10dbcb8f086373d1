/**
 * The playground: a `jsonData` editor pre-filled from the inspected template. "Generate" downloads the deck from the
 * synchronous endpoint; "Submit job" follows the job through its states to its download link. An error shows the
 * interface's error body, and the JSON path it names is selected and marked in the editor.
 */
import { ApiError, getJson, sendForm, sendFormForFile, type GenerationWarning } from '../console-api.js';
import { el, field, message, replaceChildren } from '../dom-builder.js';
import { describeError } from '../form-handling.js';
import { firstJsonPath, lineAndColumn, locateJsonPath } from '../json-path-locator.js';
import { describeMalformedJson, findJsonSyntaxError } from '../../../engine/payload/json-syntax.js';
import { prefillPayload } from '../payload-prefill.js';
import { inspectedTemplate, type InspectedTemplate } from '../template-state.js';
import { inspectForm } from './inspect-form.js';
import { jobRow, type JobRow } from './jobs-page.js';

const FINAL_STATES = new Set(['SUCCEEDED', 'FAILED']);
const POLL_MS = 400;

export function renderPlayground(main: HTMLElement): void {
  const area = el('div', {});
  const show = (template: InspectedTemplate): void => replaceChildren(area, editor(template));
  const kept = inspectedTemplate();
  if (kept) show(kept);
  else {
    area.append(
      el('p', {}, 'Start from a template: its slides and fillable shapes become the first payload.'),
      inspectForm(show),
    );
  }
  main.appendChild(area);
}

function editor(template: InspectedTemplate): HTMLElement {
  const text = el('textarea', {
    id: 'json-data',
    name: 'jsonData',
    rows: 20,
    spellcheck: 'false',
    class: 'mono',
  });
  text.value = JSON.stringify(prefillPayload(template.result, template.templateName), null, 2);
  const extra = el('input', { id: 'extra-files', type: 'file', multiple: true });
  const outcome = el('div', { id: 'outcome', 'aria-live': 'polite' });
  const generate = el('button', { type: 'button', id: 'generate' }, 'Generate');
  const submit = el('button', { type: 'button', id: 'submit-job', class: 'secondary' }, 'Submit job');
  const form = (): FormData => {
    const body = new FormData();
    if (template.file) body.append('files', template.file, template.file.name);
    for (const f of extra.files ?? []) body.append('files', f, f.name);
    body.append('jsonData', text.value);
    return body;
  };
  const busy = (on: boolean): void => {
    generate.disabled = on;
    submit.disabled = on;
    if (on) text.removeAttribute('aria-invalid');
  };
  generate.addEventListener('click', () => {
    if (!wellFormed(outcome, text)) return;
    busy(true);
    replaceChildren(outcome, message('Generating…'));
    sendFormForFile('/console/api/generate', form())
      .then(({ blob, fileName, warnings, warningList, unmatched }) => {
        const href = URL.createObjectURL(blob);
        const link = el(
          'a',
          { href, download: fileName, id: 'generated-link' },
          `Download ${fileName} again`,
        );
        replaceChildren(
          outcome,
          message(
            `Generated ${fileName}${warnings ? ` with ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`,
            'success',
          ),
          link,
          // First, in words: the deck came back, most likely not as meant (a misspelt shape, key or tag).
          unmatched === null
            ? null
            : el(
                'p',
                { class: 'message warning', role: 'status', id: 'generation-unmatched' },
                `Names in the payload that matched nothing: ${unmatched}`,
              ),
          warningsList(warnings, warningList),
        );
        link.click();
      })
      .catch((error: unknown) => showError(outcome, text, error))
      .finally(() => busy(false));
  });
  submit.addEventListener('click', () => {
    if (!wellFormed(outcome, text)) return;
    busy(true);
    replaceChildren(outcome, message('Submitting…'));
    sendForm<{ jobId: string; status?: string }>('/console/api/jobs', form())
      .then(({ jobId, status }) => followJob(outcome, jobId, status ?? null))
      .catch((error: unknown) => showError(outcome, text, error))
      .finally(() => busy(false));
  });
  return el(
    'div',
    { class: 'playground' },
    el(
      'p',
      { class: 'muted' },
      `Template: ${template.templateName}${template.stored ? ' (stored on the server)' : ''} · `,
      el('a', { href: '/console/inspector' }, 'see its shapes'),
    ),
    field('jsonData', text, 'One entry per fillable shape of every slide; edit freely.'),
    field('Pictures and other files the payload names (optional)', extra),
    el('div', { class: 'button-row' }, generate, submit),
    outcome,
  );
}

/** Each warning with its JSON path; a count the list falls short of says how many more there were. */
function warningsList(count: number, listed: readonly GenerationWarning[]): HTMLElement | null {
  if (count === 0) return null;
  const more = count - listed.length;
  return el(
    'div',
    { class: 'warnings' },
    el(
      'ul',
      { id: 'generation-warnings' },
      ...listed.map((w) => el('li', {}, el('code', {}, w.path), ` ${w.message}`)),
    ),
    more > 0 ? el('p', { class: 'muted' }, `and ${more} more not listed.`) : null,
  );
}

/** Shows each state the job is seen in, from the one the submission answered with, until it ends. */
async function followJob(outcome: HTMLElement, jobId: string, submitted: string | null): Promise<void> {
  const walk = el('ol', { id: 'job-states', class: 'states' });
  const row = el('tbody', {});
  replaceChildren(
    outcome,
    el('p', {}, 'Job ', el('code', {}, jobId)),
    walk,
    el('table', { class: 'rows' }, row),
  );
  let last = submitted ?? '';
  if (submitted) walk.appendChild(el('li', { class: `state state-${submitted.toLowerCase()}` }, submitted));
  for (;;) {
    const job = await getJson<JobRow>(`/console/api/jobs/${encodeURIComponent(jobId)}`);
    if (job.state !== last) {
      walk.appendChild(el('li', { class: `state state-${job.state.toLowerCase()}` }, job.state));
      last = job.state;
    }
    replaceChildren(row, jobRow(job));
    if (FINAL_STATES.has(job.state)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Checked here before anything is sent: malformed JSON is shown with its line and column and the spot marked in
 * the editor, instead of a server answer quoting it back.
 */
function wellFormed(outcome: HTMLElement, text: HTMLTextAreaElement): boolean {
  try {
    JSON.parse(text.value);
    return true;
  } catch {
    // Located below; JSON.parse's own message differs between browsers and may carry no position.
  }
  const where = findJsonSyntaxError(text.value);
  const position = where?.position ?? 0;
  text.setAttribute('aria-invalid', 'true');
  text.focus();
  text.setSelectionRange(position, Math.min(text.value.length, position + 1));
  replaceChildren(
    outcome,
    message(
      // The words the server and the CLI use (json-syntax.ts), so the message reads the same everywhere.
      `jsonData is ${describeMalformedJson(text.value)}. Nothing was sent.`,
      'error',
    ),
    el('div', { class: 'path-excerpt', id: 'syntax-excerpt' }, excerpt(text.value, position, position + 1)),
  );
  return false;
}

function showError(outcome: HTMLElement, text: HTMLTextAreaElement, error: unknown): void {
  if (!(error instanceof ApiError)) {
    replaceChildren(outcome, message(describeError(error), 'error'));
    return;
  }
  const body = el('pre', { class: 'error-body mono', id: 'error-body' }, JSON.stringify(error.body, null, 2));
  const details =
    typeof (error.body as { details?: unknown })?.details === 'string'
      ? (error.body as { details: string }).details
      : '';
  const path = details ? firstJsonPath(details) : null;
  const range = path ? locateJsonPath(text.value, path) : null;
  let where: HTMLElement | null = null;
  if (path && range) {
    const { line, column } = lineAndColumn(text.value, range.start);
    text.setAttribute('aria-invalid', 'true');
    text.focus();
    text.setSelectionRange(range.start, range.end);
    // Selecting does not scroll a textarea to the selection: bring its line near the top.
    const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 20;
    text.scrollTop = Math.max(0, (line - 3) * lineHeight);
    where = el(
      'div',
      { class: 'path-excerpt' },
      el('p', {}, el('code', {}, path), ` is at line ${line}, column ${column}:`),
      excerpt(text.value, range.start, range.end),
    );
  }
  replaceChildren(outcome, message(`The server answered ${error.status}.`, 'error'), body, where);
}

/** The lines around a range, with the range itself in a <mark>. */
function excerpt(source: string, start: number, end: number): HTMLElement {
  const from = source.lastIndexOf('\n', Math.max(0, start - 1)) + 1;
  const shownEnd = Math.min(end, start + 600);
  const lineEnd = source.indexOf('\n', shownEnd);
  const to = lineEnd === -1 ? source.length : lineEnd;
  return el(
    'pre',
    { class: 'mono excerpt' },
    source.slice(from, start),
    el('mark', { id: 'error-mark' }, source.slice(start, shownEnd)),
    source.slice(shownEnd, to),
  );
}
