/** The upload (or URL) form both the inspector and the playground start from. */
import { sendFormTimed, sendJson } from '../console-api.js';
import { el, field, message, replaceChildren } from '../dom-builder.js';
import { describeError, PPTX_FILES } from '../form-handling.js';
import type { InspectResult } from '../inspect-types.js';
import { keepInspectedTemplate, type InspectedTemplate } from '../template-state.js';

export function inspectForm(onInspected: (template: InspectedTemplate) => void): HTMLFormElement {
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const file = el('input', {
    id: 'template-file',
    name: 'template',
    type: 'file',
    accept: PPTX_FILES,
  });
  const url = el('input', {
    id: 'template-url',
    name: 'url',
    type: 'url',
    placeholder: 'https://example.com/template.pptx',
    autocomplete: 'off',
  });
  const form = el(
    'form',
    { class: 'card', 'aria-label': 'Template to inspect' },
    field('A .pptx template', file),
    field('…or its address', url, 'The server downloads it, as it does for a generation.'),
    el('button', { type: 'submit', id: 'inspect-button' }, 'Inspect'),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = file.files?.[0] ?? null;
    const address = url.value.trim();
    if (!chosen && !address) {
      replaceChildren(status, message('Choose a .pptx file or give its address.', 'error'));
      return;
    }
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    replaceChildren(status, message(chosen ? `Uploading ${chosen.name}…` : 'Fetching the template…'));
    performance.clearMarks();
    let request: Promise<InspectResult>;
    if (chosen) {
      const body = new FormData();
      body.append('template', chosen, chosen.name);
      request = sendFormTimed<InspectResult>('/console/api/inspect', body, () => {
        performance.mark('inspect-upload-done');
        replaceChildren(status, message(`Reading ${chosen.name}…`));
      });
    } else {
      performance.mark('inspect-upload-done');
      request = sendJson<InspectResult>('POST', '/console/api/inspect', { url: address });
    }
    request
      .then((result) => {
        const template: InspectedTemplate = {
          result,
          file: chosen,
          templateName: chosen ? chosen.name : address,
        };
        keepInspectedTemplate(template);
        replaceChildren(status);
        onInspected(template);
      })
      .catch((error: unknown) => replaceChildren(status, message(describeError(error), 'error')))
      .finally(() => {
        if (button) button.disabled = false;
      });
  });
  return form;
}
