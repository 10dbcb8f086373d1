/**
 * The account's stored templates (docs/http-api.md "Stored templates"): upload one (a file and an optional name;
 * the same name again adds a version), list the latest version of each, show a template's versions, open one in
 * the inspector or the playground, and delete one with every version, after asking. The playground names the
 * stored template in `jsonData` (its name for the latest version, its id for an older one), so Generate sends no
 * file: the server has it.
 */
import { getJson, sendForm, sendJson } from '../console-api.js';
import { el, field, message, replaceChildren } from '../dom-builder.js';
import { formatBytes, formatCount, formatDate } from '../display-format.js';
import { describeError, PPTX_FILES } from '../form-handling.js';
import type { InspectResult } from '../inspect-types.js';
import { keepInspectedTemplate } from '../template-state.js';
import type { PageContext } from './page-context.js';

/** One version of a stored template, as `/console/api/templates` gives it. */
export interface StoredTemplateRow {
  id: string;
  name: string;
  version: number;
  sha256: string;
  bytes: number;
  slides: number;
  createdAt: string;
}

interface StoredTemplateDetail extends StoredTemplateRow {
  versions: StoredTemplateRow[];
  inspect: InspectResult;
}

interface TemplatesView {
  list: HTMLElement;
  versions: HTMLElement;
  /** Where the outcome of a row's action (or its error) is written. */
  status: HTMLElement;
  context: PageContext;
}

export async function renderTemplates(main: HTMLElement, context: PageContext): Promise<void> {
  const view: TemplatesView = {
    list: el('section', { 'aria-labelledby': 'stored-heading' }),
    versions: el('section', { id: 'template-versions', class: 'card', 'aria-live': 'polite', hidden: true }),
    status: el('div', { id: 'templates-status', 'aria-live': 'polite' }),
    context,
  };
  main.append(
    el(
      'p',
      {},
      'A stored template stays on the server: ',
      el('code', {}, 'jsonData'),
      ' names it by its name (the latest version) or its id (that version), and no upload is needed.',
    ),
    uploadForm(view),
    view.status,
    view.list,
    view.versions,
  );
  await fillList(view);
}

function uploadForm(view: TemplatesView): HTMLFormElement {
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const file = el('input', {
    id: 'upload-file',
    name: 'file',
    type: 'file',
    accept: PPTX_FILES,
  });
  const name = el('input', {
    id: 'upload-name',
    name: 'name',
    type: 'text',
    maxlength: 255,
    autocomplete: 'off',
    placeholder: 'e.g. quarterly.pptx',
  });
  const button = el('button', { type: 'submit', id: 'upload-template' }, 'Upload');
  const form = el(
    'form',
    { class: 'card', 'aria-label': 'Upload a template' },
    field('A .pptx template', file),
    field('Name (optional)', name, "The file's name when left empty. A stored name gets a new version."),
    button,
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = file.files?.[0];
    if (!chosen) {
      replaceChildren(status, message('Choose a .pptx file to upload.', 'error'));
      return;
    }
    const body = new FormData();
    body.append('file', chosen, chosen.name);
    if (name.value.trim() !== '') body.append('name', name.value.trim());
    button.disabled = true;
    replaceChildren(status, message(`Uploading ${chosen.name}…`));
    sendForm<StoredTemplateRow & { created: boolean }>('/console/api/templates', body)
      .then(async (stored) => {
        replaceChildren(status, message(uploadOutcome(stored), 'success'));
        form.reset();
        // The versions shown may be of the name just uploaded to: closed rather than left out of date.
        view.versions.hidden = true;
        await fillList(view);
      })
      .catch((error: unknown) => replaceChildren(status, message(describeError(error), 'error')))
      .finally(() => (button.disabled = false));
  });
  return form;
}

/** The same bytes as the name's latest version store nothing: said as such, not as a new version. */
function uploadOutcome(stored: StoredTemplateRow & { created: boolean }): string {
  const what = `(${slidesText(stored.slides)}, ${formatBytes(stored.bytes)})`;
  return stored.created
    ? `Stored “${stored.name}”, version ${stored.version} ${what}.`
    : `“${stored.name}” version ${stored.version} has these bytes already ${what}: nothing new was stored.`;
}

function slidesText(slides: number): string {
  return `${formatCount(slides)} slide${slides === 1 ? '' : 's'}`;
}

async function fillList(view: TemplatesView): Promise<void> {
  const { templates } = await getJson<{ templates: StoredTemplateRow[] }>('/console/api/templates');
  const heading = el('h2', { id: 'stored-heading' }, 'Stored templates');
  if (templates.length === 0) {
    replaceChildren(view.list, heading, el('p', { class: 'muted' }, 'No stored templates yet.'));
    return;
  }
  const rows = templates.map((template) =>
    el(
      'tr',
      { 'data-template-id': template.id },
      el('td', { 'data-label': 'Name' }, template.name),
      el('td', { 'data-label': 'Version' }, String(template.version)),
      el('td', { 'data-label': 'Size' }, formatBytes(template.bytes)),
      el('td', { 'data-label': 'Slides' }, formatCount(template.slides)),
      el('td', { 'data-label': 'Stored' }, formatDate(template.createdAt)),
      el(
        'td',
        {},
        el(
          'div',
          { class: 'row-actions' },
          actionButton('Versions', template.name, 'secondary small', () => showVersions(view, template)),
          ...openButtons(view, template, template.name),
          actionButton('Delete', template.name, 'danger small', () => deleteTemplate(view, template)),
        ),
      ),
    ),
  );
  replaceChildren(
    view.list,
    heading,
    el(
      'table',
      { class: 'rows', id: 'templates-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'Name'),
          el('th', {}, 'Version'),
          el('th', {}, 'Size'),
          el('th', {}, 'Slides'),
          el('th', {}, 'Stored'),
          el('th', {}, el('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

/** A row's button: its visible word, and for screen readers which template it acts on. */
function actionButton(
  label: string,
  subject: string,
  kind: string,
  action: (button: HTMLButtonElement) => Promise<void>,
): HTMLButtonElement {
  const button = el('button', { type: 'button', class: kind, 'aria-label': `${label}: ${subject}` }, label);
  button.addEventListener('click', () => {
    button.disabled = true;
    void action(button).finally(() => (button.disabled = false));
  });
  return button;
}

/** "Inspect" and "Use in the playground" for one version, named in jsonData by `reference`. */
function openButtons(
  view: TemplatesView,
  version: StoredTemplateRow,
  reference: string,
): HTMLButtonElement[] {
  const subject = `${version.name} version ${version.version}`;
  return [
    actionButton('Inspect', subject, 'secondary small', () => open(view, version, reference, 'inspector')),
    actionButton('Use in the playground', subject, 'small', () =>
      open(view, version, reference, 'playground'),
    ),
  ];
}

/** Reads the version's shapes (an inspection), keeps them for the inspector and the playground, and goes there. */
async function open(
  view: TemplatesView,
  version: StoredTemplateRow,
  reference: string,
  page: 'inspector' | 'playground',
): Promise<void> {
  replaceChildren(view.status, message(`Reading “${version.name}”, version ${version.version}…`));
  try {
    const detail = await getJson<StoredTemplateDetail>(
      `/console/api/templates/${encodeURIComponent(version.id)}`,
    );
    keepInspectedTemplate({ result: detail.inspect, file: null, templateName: reference, stored: true });
    view.context.navigate(`/console/${page}`);
  } catch (error) {
    replaceChildren(view.status, message(describeError(error), 'error'));
  }
}

async function showVersions(view: TemplatesView, template: StoredTemplateRow): Promise<void> {
  replaceChildren(view.status);
  let detail: StoredTemplateDetail;
  try {
    detail = await getJson<StoredTemplateDetail>(`/console/api/templates/${encodeURIComponent(template.id)}`);
  } catch (error) {
    replaceChildren(view.status, message(describeError(error), 'error'));
    return;
  }
  const latest = detail.versions[0]?.id;
  const rows = detail.versions.map((version) =>
    el(
      'tr',
      { 'data-template-id': version.id },
      el('td', { 'data-label': 'Version' }, String(version.version)),
      el('td', { 'data-label': 'Size' }, formatBytes(version.bytes)),
      el('td', { 'data-label': 'Slides' }, formatCount(version.slides)),
      el('td', { 'data-label': 'Stored' }, formatDate(version.createdAt)),
      el('td', { 'data-label': 'Id' }, el('code', {}, version.id)),
      el(
        'td',
        {},
        el(
          'div',
          { class: 'row-actions' },
          // The latest is named by its name, so a later upload is what generation then uses; an older one by its id.
          ...openButtons(view, version, version.id === latest ? version.name : version.id),
        ),
      ),
    ),
  );
  view.versions.hidden = false;
  replaceChildren(
    view.versions,
    el('h2', {}, 'Versions of ', el('span', { class: 'template-name' }, detail.name)),
    el(
      'table',
      { class: 'rows', id: 'versions-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'Version'),
          el('th', {}, 'Size'),
          el('th', {}, 'Slides'),
          el('th', {}, 'Stored'),
          el('th', {}, 'Id'),
          el('th', {}, el('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

async function deleteTemplate(view: TemplatesView, template: StoredTemplateRow): Promise<void> {
  const versions = template.version === 1 ? 'its one version' : `all ${template.version} versions`;
  // Generation that names it stops finding it at once: asked once more, naming it.
  if (!confirm(`Delete the template “${template.name}” with ${versions}? A payload naming it stops working.`))
    return;
  try {
    const { deletedVersions } = await sendJson<{ deletedVersions: number }>(
      'DELETE',
      `/console/api/templates/${encodeURIComponent(template.id)}`,
    );
    replaceChildren(
      view.status,
      message(
        `Deleted “${template.name}” (${deletedVersions} version${deletedVersions === 1 ? '' : 's'}).`,
        'success',
      ),
    );
    view.versions.hidden = true;
    await fillList(view);
  } catch (error) {
    replaceChildren(view.status, message(describeError(error), 'error'));
  }
}
