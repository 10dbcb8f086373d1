/**
 * The console's entry point: one page shell, whose `<main>` each route fills. Links inside the console change the
 * address with the History API instead of reloading, so an inspected template stays in memory for the playground.
 * Vanilla TypeScript, no framework: ten small forms and two drawings do not need one, and the bundle stays small
 * enough to load at once on a phone.
 */
import './console.css';
import { currentSession, loadSession, sendJson } from './console-api.js';
import { el, replaceChildren } from './dom-builder.js';
import { isPublicPage, pageFor, PAGE_TITLES, type PageName } from './pages/page-table.js';

const NAV_SIGNED_IN: PageName[] = [
  'tokens',
  'usage',
  'jobs',
  'templates',
  'inspector',
  'playground',
  'account',
];
const NAV_SIGNED_OUT: PageName[] = ['sign-in', 'sign-up'];

export function navigate(path: string): void {
  history.pushState(null, '', path);
  void render();
}

function pageName(pathname: string): PageName | 'unknown' {
  const rest = pathname.replace(/^\/console\/?/, '').replace(/\/$/, '');
  if (rest === '') return currentSession()?.signedIn ? 'tokens' : 'sign-in';
  return rest in PAGE_TITLES ? (rest as PageName) : 'unknown';
}

function navigation(active: PageName | 'unknown'): HTMLElement {
  const session = currentSession();
  const names = session?.signedIn
    ? NAV_SIGNED_IN
    : NAV_SIGNED_OUT.filter((name) => name !== 'sign-up' || session?.signup.open);
  const links = names.map((name) =>
    el(
      'li',
      {},
      el(
        'a',
        { href: `/console/${name}`, 'aria-current': name === active ? 'page' : null },
        PAGE_TITLES[name],
      ),
    ),
  );
  const who =
    session?.signedIn && session.account ? el('span', { class: 'who' }, session.account.email) : null;
  const signOut = session?.signedIn
    ? el('li', {}, el('button', { type: 'button', class: 'link', id: 'sign-out' }, 'Sign out'))
    : null;
  // The API reference and guides, served by the same server (a full page load: /docs is not a console page).
  const docs = el('li', {}, el('a', { href: '/docs' }, 'API docs'));
  return el('nav', { 'aria-label': 'Console' }, el('ul', {}, ...links, docs, signOut), who);
}

async function render(): Promise<void> {
  const session = currentSession() ?? (await loadSession());
  let name = pageName(location.pathname);
  const main = document.getElementById('view');
  const header = document.getElementById('top');
  if (!main || !header) return;
  if (name !== 'unknown' && !session.signedIn && !isPublicPage(name)) {
    history.replaceState(null, '', '/console/sign-in');
    name = 'sign-in';
  }
  replaceChildren(
    header,
    el('a', { href: '/console', class: 'brand' }, 'Deckforge console'),
    navigation(name),
  );
  document.title = `${name === 'unknown' ? 'Not found' : PAGE_TITLES[name]} · Deckforge console`;
  if (name === 'unknown') {
    replaceChildren(
      main,
      el('h1', {}, 'Page not found'),
      el('p', {}, el('a', { href: '/console' }, 'Back to the console')),
    );
    return;
  }
  replaceChildren(main, el('h1', {}, PAGE_TITLES[name]));
  try {
    await pageFor(name)(main, { navigate, refreshSession: async () => void (await loadSession()) });
  } catch (error) {
    main.appendChild(
      el(
        'p',
        { class: 'message error', role: 'alert' },
        error instanceof Error ? error.message : String(error),
      ),
    );
  }
}

document.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target : null;
  if (target?.closest('#sign-out')) {
    event.preventDefault();
    void sendJson('POST', '/console/api/sign-out')
      .catch(() => undefined)
      .then(loadSession)
      .then(() => navigate('/console/sign-in'));
    return;
  }
  const link = target?.closest('a');
  if (
    !link ||
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey
  )
    return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/console') || link.hasAttribute('download'))
    return;
  if (url.pathname.startsWith('/console/api') || url.pathname.startsWith('/console/assets')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void render());
void render();
