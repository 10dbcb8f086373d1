/**
 * A form's submit: the button is disabled while the request runs (no double posts), and the outcome (or the
 * server's error text) is written, as text, into the form's status area.
 */
import { ApiError } from './console-api.js';
import { message, replaceChildren } from './dom-builder.js';

/** What a template's file input accepts: .pptx by name or by media type. */
export const PPTX_FILES = '.pptx,application/vnd.openxmlformats-officedocument.presentationml.presentation';

export function onSubmit(
  form: HTMLFormElement,
  status: HTMLElement,
  action: (data: FormData) => Promise<string | null | void>,
): void {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const buttons = [...form.querySelectorAll('button')];
    buttons.forEach((b) => (b.disabled = true));
    replaceChildren(status, message('Working…'));
    action(new FormData(form))
      .then((done) => replaceChildren(status, done ? message(done, 'success') : null))
      .catch((error: unknown) => replaceChildren(status, message(describeError(error), 'error')))
      .finally(() => buttons.forEach((b) => (b.disabled = false)));
  });
}

export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    const prefix = error.status === 429 ? 'Too many attempts: ' : '';
    return `${prefix}${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function text(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
