/**
 * The user guides of `docs/` (Markdown in the repository, shipped in the package), served as HTML under
 * /docs/<name> so that a running server documents itself without internet access. Links between the pages
 * (`payload.md`) become links between the served pages (`/docs/payload`).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';
import { escapeHtml, htmlPage } from './docs-page.js';

// Same relative position from src/http and dist/http.
const DOCS_DIR = fileURLToPath(new URL('../../../docs/', import.meta.url));

export interface Guide {
  /** The file name without `.md`: the page is /docs/<name>. */
  name: string;
  /** The page's first heading. */
  title: string;
  html: string;
  /** The page as it is in docs/, served at /docs/<name>.md for agents (llms-txt.ts). */
  markdown: string;
}

const GUIDE_LINK = /^([a-z0-9-]+)\.md(#[\w-]*)?$/;

/**
 * The order a newcomer reads them in: the API, then what goes in jsonData, then running the service. A guide not
 * named here follows, in file-name order.
 */
const READING_ORDER = [
  'http-api',
  'payload',
  'payload-tables',
  'payload-charts',
  'payload-pictures',
  'previews',
  'large-decks',
  'client',
  'python',
  'console',
  'configuration',
  'operations',
  'security',
];

function readingRank(name: string): number {
  const rank = READING_ORDER.indexOf(name);
  return rank === -1 ? READING_ORDER.length : rank;
}

/** A heading as plain text: `code`, **strong** and _emphasis_ marks dropped. */
function plainTitle(heading: string): string {
  return heading.replace(/[`*]|(?<!\w)_|_(?!\w)/g, '').trim();
}

const markdown = new Marked({
  gfm: true,
  renderer: {
    link({ href, title, tokens }) {
      const guide = GUIDE_LINK.exec(href);
      const target = guide ? `/docs/${guide[1]}${guide[2] ?? ''}` : href;
      const titleAttr = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(target)}"${titleAttr}>${this.parser.parseInline(tokens)}</a>`;
    },
  },
});

/** Every guide, rendered once at start-up, in reading order. */
export function loadGuides(dir = DOCS_DIR): Guide[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -3))
    .sort((a, b) => readingRank(a) - readingRank(b) || a.localeCompare(b))
    .map((name) => {
      const text = readFileSync(join(dir, `${name}.md`), 'utf8');
      const title = plainTitle(/^#\s+(.+)$/m.exec(text)?.[1] ?? name);
      const body = markdown.parse(text, { async: false });
      const nav =
        '<p><a href="/docs">← API reference and all guides</a> · <a href="/console">Console</a></p>';
      return { name, title, html: htmlPage(`Deckforge: ${title}`, `${nav}\n${body}`), markdown: text };
    });
}
