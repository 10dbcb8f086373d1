/**
 * `/mcp`, the Model Context Protocol's Streamable HTTP transport (docs/mcp.md, "Over HTTP"), by the official SDK in
 * its stateless mode: every POST gets a server and a transport of its own, built for the account its bearer token
 * names and gone when the answer is sent, so any API node answers any request (nothing is kept between them but
 * what the shared stores keep). Answers are plain JSON (no event stream), and GET and DELETE, which only a
 * stateful server has a use for, are 405. The token is checked before the body is read, by the same
 * `authenticate` as every bearer route; without one the answer is the 401 (shape B, `WWW-Authenticate: Bearer`)
 * that the SDK's client reports as such. Tool calls, not protocol messages, are what is throttled and counted.
 *
 * The SDK's web-standard transport answers with a `Response`, which this route sends as any route sends its
 * answer: through Fastify's reply, so the request log line, `/metrics` and the headers every answer carries
 * (request id, security headers, no-store) are the same as on every other route.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from '../../mcp/mcp-server.js';
import type { Account } from '../../service/deckforge-service.js';
import { bearerToken } from '../bearer-auth.js';
import { linkBase } from '../link-base.js';
import { serviceAccounting, serviceToolBackend } from '../mcp-tool-backend.js';
import type { RouteContext } from '../route-context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The bearer token's account, kept apart from `request.account`: bearer-auth.ts counts each request with an
     * account as one API call, and here a tool call is the unit, not a protocol message (mcp-tool-backend.ts).
     */
    mcpAccount?: Account;
  }
}

export function registerMcpRoutes(app: FastifyInstance, ctx: RouteContext): void {
  const { service, config, limits } = ctx;
  app.post(
    '/mcp',
    {
      config: { endpoint: 'operations', noStore: true },
      // Before the body is read: an unauthenticated upload costs no parsing.
      onRequest: async (request, reply) => {
        reply.header('www-authenticate', 'Bearer');
        request.mcpAccount = await service.authenticate(bearerToken(request));
        reply.removeHeader('www-authenticate');
      },
    },
    answer,
  );
  for (const method of ['GET', 'DELETE'] as const) {
    app.route({
      method,
      url: '/mcp',
      config: { endpoint: 'operations' },
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: {
              code: -32000,
              message: 'Method not allowed: this server is stateless; POST each message',
            },
            id: null,
          }),
    });
  }

  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const account = request.mcpAccount;
    // Only reachable if the onRequest hook above stopped authenticating: a programming error, hence a 500.
    if (!account) throw new Error('/mcp reached its handler without an authenticated account');
    const backend = serviceToolBackend(service, account, linkBase(request, config), limits);
    const server = createMcpServer(backend, {
      accounting: serviceAccounting(service, account, limits),
      onServerFault: (error, tool) => request.log.error({ err: error, tool }, 'MCP tool failed'),
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // A client that leaves before its answer ends the exchange. Once the answer is sent nothing of either is
    // left to end (closing then would only build the SDK's "connection closed" error for no one): both go with
    // the request.
    reply.raw.on('close', () => {
      if (reply.raw.writableFinished) return;
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    const answered = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
    const headers: Record<string, string> = {};
    answered.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return reply
      .code(answered.status)
      .headers(headers)
      .send(answered.body === null ? undefined : await answered.text());
  }
}

/** The request headers the web-standard transport reads (webStandardStreamableHttp.js, POST). */
const TRANSPORT_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'] as const;

/**
 * The request as the web-standard transport reads it: the method, the path and the headers it checks (Accept,
 * Content-Type, the protocol version and session). The body is Fastify's, already parsed within the JSON limits,
 * and handed over as such; the token stays out (the account is already known), as do the headers nothing reads.
 */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of TRANSPORT_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // Only the path matters to the transport: a fixed origin, so that no Host header can make the URL unparsable.
  return new Request(new URL(request.url, 'http://localhost'), { method: request.method, headers });
}
