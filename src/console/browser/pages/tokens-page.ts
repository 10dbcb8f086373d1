/**
 * Create a token with an optional name (shown once, with a copy button and a curl line that works as pasted),
 * list the live ones (name, created, expires, last used; never the token itself) and revoke one, after asking.
 */
import { getJson, sendJson } from '../console-api.js';
import { copyableValue } from '../copy-button.js';
import { el, field, message, replaceChildren } from '../dom-builder.js';
import { formatDate } from '../display-format.js';
import { describeError } from '../form-handling.js';

interface TokenRow {
  id: string;
  name: string | null;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
}

/** A curl line for `/v1.0/usage` with the new token; single quotes keep any shell from reading into it. */
export function curlLine(origin: string, token: string): string {
  return `curl -H 'Authorization: Bearer ${token}' '${origin}/v1.0/usage'`;
}

export async function renderTokens(main: HTMLElement): Promise<void> {
  const created = el('div', { 'aria-live': 'polite' });
  const list = el('section', { 'aria-labelledby': 'live-heading' });
  const name = el('input', {
    id: 'token-name',
    name: 'token-name',
    type: 'text',
    maxlength: 60,
    autocomplete: 'off',
    placeholder: 'e.g. Nightly report export',
  });
  const create = el('button', { type: 'button', id: 'create-token' }, 'Create a token');
  create.addEventListener('click', () => {
    create.disabled = true;
    sendJson<{ id: string; token: string; expiresAt: string }>('POST', '/console/api/tokens', {
      name: name.value,
    })
      .then(async (answer) => {
        replaceChildren(
          created,
          el(
            'div',
            { class: 'card' },
            message(
              `Your new token, shown this once. It expires ${formatDate(answer.expiresAt)}.`,
              'success',
            ),
            copyableValue('new-token', 'Token', answer.token),
            copyableValue('curl-line', 'Try it', curlLine(location.origin, answer.token)),
          ),
        );
        name.value = '';
        await fillList(list);
      })
      .catch((error: unknown) => replaceChildren(created, message(describeError(error), 'error')))
      .finally(() => (create.disabled = false));
  });
  main.append(
    el(
      'p',
      {},
      'A token authorises calls to the API (',
      el('code', {}, 'Authorization: Bearer …'),
      '), like one from ',
      el('code', {}, 'POST /v1.0/token/create'),
      '.',
    ),
    el(
      'div',
      { class: 'inline-form' },
      field('Name (optional)', name, 'What uses it, to tell tokens apart.'),
      create,
    ),
    created,
    list,
  );
  await fillList(list);
}

async function fillList(list: HTMLElement): Promise<void> {
  const { tokens } = await getJson<{ tokens: TokenRow[] }>('/console/api/tokens');
  const heading = el('h2', { id: 'live-heading' }, 'Live tokens');
  if (tokens.length === 0) {
    replaceChildren(list, heading, el('p', { class: 'muted' }, 'No live tokens.'));
    return;
  }
  const status = el('div', { 'aria-live': 'polite' });
  const rows = tokens.map((token) => {
    const revoke = el(
      'button',
      {
        type: 'button',
        class: 'danger small',
        'aria-label': `Revoke ${describeToken(token)}`,
      },
      'Revoke',
    );
    revoke.addEventListener('click', () => {
      // A revoked token stops working at once for whatever uses it: asked once more, naming which.
      if (!confirm(`Revoke ${describeToken(token)}? Programs using it stop working.`)) return;
      revoke.disabled = true;
      sendJson('DELETE', `/console/api/tokens/${encodeURIComponent(token.id)}`)
        .then(() => fillList(list))
        .catch((error: unknown) => replaceChildren(status, message(describeError(error), 'error')));
    });
    return el(
      'tr',
      { 'data-token-id': token.id },
      el('td', { 'data-label': 'Name' }, token.name ?? el('span', { class: 'muted' }, 'unnamed')),
      el('td', { 'data-label': 'Created' }, formatDate(token.createdAt)),
      el('td', { 'data-label': 'Expires' }, formatDate(token.expiresAt)),
      el('td', { 'data-label': 'Last used' }, token.lastUsedAt ? formatDate(token.lastUsedAt) : 'never'),
      el('td', {}, revoke),
    );
  });
  replaceChildren(
    list,
    heading,
    status,
    el(
      'table',
      { class: 'rows' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', {}, 'Name'),
          el('th', {}, 'Created'),
          el('th', {}, 'Expires'),
          el('th', {}, 'Last used'),
          el('th', {}, el('span', { class: 'visually-hidden' }, 'Actions')),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}

/** "the token “CI pipeline”" or "the token created 27 Nov 2026, 19:20". */
function describeToken(token: TokenRow): string {
  return token.name ? `the token “${token.name}”` : `the token created ${formatDate(token.createdAt)}`;
}
