/** A "Copy" button for a value shown once (a token, a key, a curl line), with a visible confirmation. */
import { el } from './dom-builder.js';

export async function copyText(value: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(value);
    return true;
  } catch {
    // No clipboard permission (an insecure origin, a denied prompt): the value stays on screen to select.
    return false;
  }
}

export function copyButton(value: () => string, label = 'Copy'): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', () => {
    void copyText(value()).then((ok) => {
      button.textContent = ok ? 'Copied' : 'Select and copy';
      setTimeout(() => (button.textContent = label), 2000);
    });
  });
  return button;
}

/** A read-only value with its copy button; the field selects itself on focus so it is easy to copy by hand too. */
export function copyableValue(id: string, label: string, value: string): HTMLElement {
  const output = el('input', { id, type: 'text', readonly: true, value, class: 'mono', spellcheck: 'false' });
  output.addEventListener('focus', () => output.select());
  return el(
    'div',
    { class: 'field' },
    el('label', { for: id }, label),
    el(
      'div',
      { class: 'copy-row' },
      output,
      copyButton(() => value),
    ),
  );
}
