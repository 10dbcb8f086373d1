/**
 * Response headers that keep browsers from misusing what we send (docs/security.md), set by @fastify/helmet on every
 * routed response: `nosniff`, a Content-Security-Policy that allows nothing but /docs' own inline style and this origin's favicon, no
 * framing (X-Frame-Options DENY, frame-ancestors 'none'). Strict-Transport-Security is left to the TLS proxy in
 * front (docs/security.md): this server speaks plain HTTP. Routes marked `noStore` (tokens, usage, job status,
 * the files) are never cached, their errors included.
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import { DOCS_STYLE_SOURCE } from './docs-site/docs-page.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers (errors too) carry `Cache-Control: no-store`: credentials, account data, signed links. */
    noStore?: boolean;
  }
}

/** What a response written outside Fastify's hooks (a raw socket reply, a router error) must carry too. */
export const BASELINE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
});

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: [DOCS_STYLE_SOURCE],
        imgSrc: ["'self'"], // the favicon
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'none'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config.noStore) reply.header('cache-control', 'no-store');
    return payload;
  });
}
