/**
 * `/mcp`, the Model Context Protocol's Streamable HTTP transport (docs/mcp.md, "Over HTTP"), by the official SDK in
 * its stateless mode: every POST gets a server and a transport of its own, built for the account its bearer token
 * names and gone when the answer is sent, so any API node answers any request (nothing is kept between them but
 * what the shared stores keep). Answers are plain JSON (no event stream), and GET and DELETE, which only a
 * stateful server has a use for, are 405. The token is checked before the body is read, by the same
 * `authenticate` as every bearer route; without one the answer is the 401 (shape B, `WWW-Authenticate: Bearer`)
 * that the SDK's client reports as such. Tool calls, not protocol messages, are what is throttled and counted.
 */
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createMcpServer } from '../../mcp/mcp-server.js';
import type { Account } from '../../service/deckforge-service.js';
import { UnauthorizedError } from '../../service/errors.js';
import { bearerToken } from '../bearer-auth.js';
import { linkBase } from '../link-base.js';
import { serviceAccounting, serviceToolBackend } from '../mcp-tool-backend.js';
import type { RouteContext } from '../route-context.js';

declare module 'fastify' {
  interface FastifyRequest {
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
    async (request, reply) => answer(request, reply),
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

  async function answer(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const account = request.mcpAccount;
    if (!account) throw new UnauthorizedError();
    const backend = serviceToolBackend(service, account, linkBase(request, config), limits);
    const server = createMcpServer(backend, {
      accounting: serviceAccounting(service, account, limits),
      onServerFault: (error, tool) => request.log.error({ err: error, tool }, 'MCP tool failed'),
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The SDK writes the answer on the raw response: the headers every answer carries (request id, security
    // headers, no-store) go onto it first.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
    }
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
