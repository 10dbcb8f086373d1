/**
 * The console's pages and assets: `GET /console` and `/console/<page>` answer one small HTML shell (the browser
 * code draws the page), and `/console/assets/<file>` the bundle that `npm run build` made in dist/console
 * (scripts/build-console.ts). The asset names carry a hash of their content, so browsers keep them for a year; the
 * shell is never cached, so a new build is picked up at once. Brotli and gzip copies made at build time are sent to
 * browsers that accept them. Every answer here carries a strict Content-Security-Policy: scripts and styles from this
 * origin only, nothing inline, no framing.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FAVICON_LINK } from '../../http/docs-site/favicon.js';
import { NotFoundError, ServiceUnavailableError } from '../../service/errors.js';

/** The same from src/console/server and dist/console/server: the repository's dist/console. */
export const CONSOLE_BUILD_DIR = fileURLToPath(new URL('../../../dist/console/', import.meta.url));

export const CONSOLE_PAGES = [
  'sign-in',
  'sign-up',
  'confirm',
  'reset',
  'tokens',
  'usage',
  'jobs',
  'templates',
  'inspector',
  'playground',
  'account',
] as const;

/** `img-src data: blob:` for the picture entries' data URLs and generated downloads; nothing else leaves 'self'. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

interface ConsoleBuild {
  shell: string;
  /** Asset name → its bytes and its precompressed copies (read once: the set is small and never changes). */
  assets: Map<string, { raw: Buffer; br: Buffer | null; gzip: Buffer | null }>;
}

function loadBuild(dir: string): ConsoleBuild | null {
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { script: string; style: string };
  const assetsDir = join(dir, 'assets');
  const assets: ConsoleBuild['assets'] = new Map();
  for (const name of readdirSync(assetsDir)) {
    if (!(extname(name) in TYPES)) continue;
    const twin = (suffix: string): Buffer | null =>
      existsSync(join(assetsDir, name + suffix)) ? readFileSync(join(assetsDir, name + suffix)) : null;
    assets.set(name, { raw: readFileSync(join(assetsDir, name)), br: twin('.br'), gzip: twin('.gz') });
  }
  return { shell: shellHtml(manifest.script, manifest.style), assets };
}

function shellHtml(script: string, style: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<title>Deckforge console</title>',
    FAVICON_LINK,
    `<link rel="stylesheet" href="/console/assets/${style}">`,
    `<script type="module" src="/console/assets/${script}"></script>`,
    '</head>',
    '<body>',
    '<header id="top"><a href="/console">Deckforge console</a></header>',
    '<main id="view"><noscript>The console needs JavaScript.</noscript></main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function preferredEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const allows = (name: string): boolean =>
    accepted.split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return token?.trim().toLowerCase() === name && (q === undefined || Number(q) > 0);
    });
  if (allows('br')) return 'br';
  return allows('gzip') ? 'gzip' : null;
}

export function registerConsolePages(app: FastifyInstance, buildDir: string = CONSOLE_BUILD_DIR): void {
  const build = loadBuild(buildDir);
  const config = { endpoint: 'operations' as const };

  const sendShell = async (_request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (!build) throw new ServiceUnavailableError('The console is not built: run `npm run build`.');
    return reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(build.shell);
  };
  app.get('/console', { config }, sendShell);
  app.get<{ Params: { page: string } }>('/console/:page', { config }, async (request, reply) => {
    if (!(CONSOLE_PAGES as readonly string[]).includes(request.params.page))
      throw new NotFoundError(`No console page "${request.params.page}"`);
    return sendShell(request, reply);
  });

  app.get<{ Params: { file: string } }>('/console/assets/:file', { config }, async (request, reply) => {
    const asset = build?.assets.get(request.params.file);
    if (!asset) throw new NotFoundError(`No console asset "${request.params.file}"`);
    const encoding = preferredEncoding(request);
    const body = (encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : null) ?? asset.raw;
    if (body !== asset.raw) reply.header('content-encoding', encoding);
    return reply
      .header('content-security-policy', CONSOLE_CSP)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('vary', 'accept-encoding')
      .type(TYPES[extname(request.params.file)] ?? 'application/octet-stream')
      .send(body);
  });
}
