/** Every console page: its title, whether it needs a signed-in session, and the function that fills `<main>`. */
import { renderAccount } from './account-page.js';
import { renderConfirm, renderReset, renderSignIn, renderSignUp } from './sign-in-pages.js';
import { renderInspector } from './inspector-page.js';
import { renderJobs } from './jobs-page.js';
import { renderPlayground } from './playground-page.js';
import { renderTemplates } from './templates-page.js';
import { renderTokens } from './tokens-page.js';
import { renderUsage } from './usage-page.js';
import type { PageContext } from './page-context.js';

export type { PageContext };

export type PageRenderer = (main: HTMLElement, context: PageContext) => Promise<void> | void;

export const PAGE_TITLES = {
  'sign-in': 'Sign in',
  'sign-up': 'Sign up',
  confirm: 'Confirm your address',
  reset: 'Reset your password',
  tokens: 'Tokens',
  usage: 'Usage',
  jobs: 'Jobs',
  templates: 'Templates',
  inspector: 'Template inspector',
  playground: 'Playground',
  account: 'Account',
} as const;

export type PageName = keyof typeof PAGE_TITLES;

const PUBLIC: ReadonlySet<PageName> = new Set(['sign-in', 'sign-up', 'confirm', 'reset']);

export function isPublicPage(name: PageName): boolean {
  return PUBLIC.has(name);
}

const RENDERERS: Record<PageName, PageRenderer> = {
  'sign-in': renderSignIn,
  'sign-up': renderSignUp,
  confirm: renderConfirm,
  reset: renderReset,
  tokens: renderTokens,
  usage: renderUsage,
  jobs: renderJobs,
  templates: renderTemplates,
  inspector: renderInspector,
  playground: renderPlayground,
  account: renderAccount,
};

export function pageFor(name: PageName): PageRenderer {
  return RENDERERS[name];
}
