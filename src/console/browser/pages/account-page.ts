/** Change the password (the current one required) and see or rotate the security key. */
import { currentSession, getJson, sendJson } from '../console-api.js';
import { copyableValue } from '../copy-button.js';
import { el, field, message, replaceChildren } from '../dom-builder.js';
import { formatDate } from '../display-format.js';
import { onSubmit, text } from '../form-handling.js';

export async function renderAccount(main: HTMLElement): Promise<void> {
  const account = currentSession()?.account;
  if (account)
    main.appendChild(
      el('p', {}, 'Signed in as ', el('strong', {}, account.email), ` · plan ${account.plan}`),
    );
  main.appendChild(passwordForm());
  main.appendChild(await securityKeyCard());
}

function passwordForm(): HTMLElement {
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'card narrow', 'aria-labelledby': 'password-heading' },
    el('h2', { id: 'password-heading' }, 'Change password'),
    field(
      'Current password',
      el('input', {
        id: 'current-password',
        name: 'current',
        type: 'password',
        autocomplete: 'current-password',
        required: true,
      }),
    ),
    field(
      'New password',
      el('input', {
        id: 'new-password',
        name: 'next',
        type: 'password',
        autocomplete: 'new-password',
        required: true,
      }),
    ),
    el('button', { type: 'submit' }, 'Change password'),
    status,
  );
  onSubmit(form, status, async (data) => {
    await sendJson('POST', '/console/api/password', {
      currentPassword: text(data, 'current'),
      newPassword: text(data, 'next'),
    });
    form.reset();
    return 'Your password is changed.';
  });
  return form;
}

async function securityKeyCard(): Promise<HTMLElement> {
  const key = await getJson<{ exists: boolean; createdAt?: string }>('/console/api/security-key');
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const rotate = el('button', { type: 'button', class: 'secondary' }, 'Rotate the key…');
  const card = el(
    'section',
    { class: 'card narrow', 'aria-labelledby': 'key-heading' },
    el('h2', { id: 'key-heading' }, 'Security key'),
    el(
      'p',
      {},
      key.exists
        ? `A security key exists (created ${formatDate(key.createdAt)}).`
        : 'This account has no security key.',
    ),
    el('p', { class: 'muted' }, 'Rotating makes a new key and revokes every token of this account.'),
    rotate,
    status,
  );
  rotate.addEventListener('click', () => {
    const yes = el('button', { type: 'button', class: 'danger' }, 'Yes, rotate it and revoke my tokens');
    const no = el('button', { type: 'button', class: 'secondary' }, 'Keep the key');
    no.addEventListener('click', () => replaceChildren(status));
    yes.addEventListener('click', () => {
      yes.disabled = true;
      sendJson<{ emailed: boolean; securityKey?: string }>('POST', '/console/api/security-key/rotate')
        .then((answer) =>
          replaceChildren(
            status,
            answer.emailed
              ? message('A new key is on its way to your address. Your tokens are revoked.', 'success')
              : el(
                  'div',
                  {},
                  message(
                    'Your new key, shown this once (no mail server is configured). Your tokens are revoked.',
                    'success',
                  ),
                  copyableValue('new-security-key', 'Security key', answer.securityKey ?? ''),
                ),
          ),
        )
        .catch((error: unknown) =>
          replaceChildren(status, message(error instanceof Error ? error.message : String(error), 'error')),
        );
    });
    replaceChildren(status, el('div', { class: 'button-row' }, yes, no));
  });
  return card;
}
