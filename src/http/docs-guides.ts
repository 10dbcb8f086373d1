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
const DOCS_DIR = fileURLToPath(new URL('../../docs/', import.meta.url));

export interface Guide {
  /** The file name without `.md`: the page is /docs/<name>. */
  name: string;
  /** The page's first heading. */
  title: string;
  html: string;
}

const GUIDE_LINK = /^([a-z0-9-]+)\.md(#[\w-]*)?$/;

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

/** Every guide, rendered once at start-up, in file-name order. */
export function loadGuides(dir = DOCS_DIR): Guide[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? file;
      const body = markdown.parse(text, { async: false });
      const nav = '<p><a href="/docs">← API reference and all guides</a></p>';
      return { name: file.slice(0, -3), title, html: htmlPage(`Deckforge: ${title}`, `${nav}\n${body}`) };
    });
}
