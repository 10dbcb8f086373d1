/** The pages a visitor without a session uses: sign in, sign up, confirm the address, reset the password. */
import { currentSession, loadSession, sendJson } from '../console-api.js';
import { el, field, message } from '../dom-builder.js';
import { describeError, onSubmit, text } from '../form-handling.js';
import type { PageContext } from './page-context.js';

function input(
  id: string,
  type: string,
  autocomplete: string,
  extra: Record<string, string | number> = {},
): HTMLInputElement {
  return el('input', { id, name: id, type, autocomplete, required: true, ...extra });
}

export function renderSignIn(main: HTMLElement, context: PageContext): void {
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'card narrow', 'aria-label': 'Sign in' },
    field('E-mail', input('email', 'email', 'username')),
    field('Password', input('password', 'password', 'current-password')),
    el('button', { type: 'submit' }, 'Sign in'),
    status,
    el(
      'p',
      {},
      el('a', { href: '/console/reset' }, 'Forgot your password?'),
      ...(currentSession()?.signup.open
        ? [' · ', el('a', { href: '/console/sign-up' }, 'Create an account')]
        : []),
    ),
  );
  onSubmit(form, status, async (data) => {
    await sendJson('POST', '/console/api/sign-in', {
      email: text(data, 'email'),
      password: text(data, 'password'),
    });
    await context.refreshSession();
    context.navigate('/console/tokens');
  });
  main.appendChild(form);
}

/** "Sign-up is closed on this server." or "Sign-up is closed: no mail server configured." — the reason said once. */
export function signupClosedText(reason: string | undefined): string {
  if (!reason || /^sign-up is closed/i.test(reason)) return 'Sign-up is closed on this server.';
  return `Sign-up is closed: ${reason}.`;
}

export function renderSignUp(main: HTMLElement): void {
  const signup = currentSession()?.signup;
  if (!signup?.open) {
    main.appendChild(
      el(
        'div',
        { class: 'card narrow' },
        message(signupClosedText(signup?.reason), 'info'),
        el(
          'p',
          {},
          'Ask the operator of this server for an account, or ',
          el('a', { href: '/console/sign-in' }, 'sign in'),
          '.',
        ),
      ),
    );
    return;
  }
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  const form = el(
    'form',
    { class: 'card narrow', 'aria-label': 'Sign up' },
    field('E-mail', input('email', 'email', 'email')),
    field(
      'Password',
      input('password', 'password', 'new-password', { minlength: 8 }),
      'At least 8 characters.',
    ),
    el('button', { type: 'submit' }, 'Create account'),
    status,
    el('p', {}, 'Already registered? ', el('a', { href: '/console/sign-in' }, 'Sign in'), '.'),
  );
  onSubmit(form, status, async (data) => {
    const answer = await sendJson<{ message?: string }>('POST', '/console/api/sign-up', {
      email: text(data, 'email'),
      password: text(data, 'password'),
    });
    form.reset();
    return answer?.message ?? 'Check your mailbox: the link in our e-mail confirms your address.';
  });
  main.appendChild(form);
}

export async function renderConfirm(main: HTMLElement): Promise<void> {
  const token = new URLSearchParams(location.search).get('token');
  const box = el('div', { class: 'card narrow', 'aria-live': 'polite' });
  main.appendChild(box);
  if (!token) {
    box.appendChild(message('This page needs the link from the confirmation e-mail.', 'error'));
    return;
  }
  box.appendChild(message('Confirming your address…'));
  try {
    const answer = await sendJson<{ email: string }>('POST', '/console/api/confirm', { token });
    await loadSession();
    box.replaceChildren(
      message(`${answer.email} is confirmed. You can sign in now.`, 'success'),
      el('p', {}, el('a', { href: '/console/sign-in' }, 'Sign in')),
    );
  } catch (error) {
    box.replaceChildren(message(describeError(error), 'error'));
  }
}

export function renderReset(main: HTMLElement, context: PageContext): void {
  const token = new URLSearchParams(location.search).get('token');
  const status = el('div', { class: 'status', 'aria-live': 'polite' });
  if (!token && !currentSession()?.mailConfigured) {
    // Said before anyone types an address: without a mail server no link can be sent.
    main.appendChild(
      el(
        'div',
        { class: 'card narrow' },
        message('This server has no mail server, so it cannot send reset links.', 'info'),
        el(
          'p',
          {},
          'Ask the operator of this server to reset your password, or ',
          el('a', { href: '/console/sign-in' }, 'sign in'),
          '.',
        ),
      ),
    );
    return;
  }
  if (!token) {
    const form = el(
      'form',
      { class: 'card narrow', 'aria-label': 'Request a reset link' },
      el('p', {}, 'We send a link to set a new password. It works once and expires.'),
      field('E-mail', input('email', 'email', 'email')),
      el('button', { type: 'submit' }, 'Send the link'),
      status,
    );
    onSubmit(form, status, async (data) => {
      await sendJson('POST', '/console/api/password-reset', { email: text(data, 'email') });
      return 'If an account uses that address, a reset link is on its way.';
    });
    main.appendChild(form);
    return;
  }
  const form = el(
    'form',
    { class: 'card narrow', 'aria-label': 'Set a new password' },
    field(
      'New password',
      input('new-password', 'password', 'new-password', { minlength: 8 }),
      'At least 8 characters.',
    ),
    el('button', { type: 'submit' }, 'Set the password'),
    status,
  );
  onSubmit(form, status, async (data) => {
    await sendJson('POST', '/console/api/password-reset/complete', {
      token,
      newPassword: text(data, 'new-password'),
    });
    context.navigate('/console/sign-in');
  });
  main.appendChild(form);
}
