/**
 * `/mcp` is stateless between requests (docs/mcp.md, "Over HTTP"): two API nodes, each with its own data directory,
 * on one PostgreSQL database and one S3 bucket, and one SDK client whose every request goes to the other node
 * than the one before (a round-robin balancer in front of them). The template it uploads through one node, the
 * deck it makes through the other, the job it reads and the usage it asks for all answer, whichever node it lands on.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDatabase } from '../../src/adapters/postgres/pg-database.js';
import { migratePg } from '../../src/adapters/postgres/pg-schema.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { startLocalS3, type LocalS3 } from '../support/servers/s3-server.js';
import { createTestDatabase, testPostgresUrl } from '../support/servers/shared-stores.js';

const SAMPLE = readFileSync(new URL('../../examples/sample-template.pptx', import.meta.url));
const serverUrl = await testPostgresUrl();

describe.skipIf(serverUrl === null)('/mcp on two API nodes sharing PostgreSQL and S3', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: LocalS3;
  let nodes: RunningServer[] = [];
  let balancer: { url: string; landed: string[]; close(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase(serverUrl!);
    const db = new PgDatabase({ url: database.url });
    await migratePg(db);
    await db.close();
    s3 = await startLocalS3();
    // The AWS SDK's own credential chain, as in production (s3rver accepts any key).
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    const overrides = {
      database: { url: database.url, poolSize: 4, statementTimeoutMs: 10_000 },
      s3: { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true },
    };
    nodes = [await startServer({ overrides }), await startServer({ overrides })];
    balancer = await roundRobin(nodes.map((node) => node.base));
  }, 120_000);
  afterAll(async () => {
    await balancer?.close();
    for (const node of nodes) await node.close();
    await s3?.stop();
    await database?.drop();
  });

  it('every request of one client is answered by whichever node it lands on', async () => {
    const { token } = await nodes[0]!.signUp();
    const client = new Client({ name: 'deckforge-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${balancer.url}/mcp`), {
        requestInit: { headers: bearer(token) },
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      return result.structuredContent as Record<string, unknown>;
    };
    await call('upload_template', { name: 'shared', content_base64: SAMPLE.toString('base64') });
    const described = await call('describe_template', { template: 'shared' });
    expect((described['template'] as { name: string }).name).toBe('shared');
    const deck = await call('generate_deck', {
      jsonData: {
        presentation: {
          template: 'shared',
          slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'Made on one node' }] }],
        },
      },
    });
    expect(deck['status']).toBe('SUCCEEDED');
    const job = await call('get_job', { job_id: deck['deck_id'] });
    expect(job).toMatchObject({ deck_id: deck['deck_id'], status: 'SUCCEEDED', slide_count: 1 });
    // Each node writes its usage every 100 ms (usage-writer.ts): the other node's figure may lag by that much.
    await expect
      .poll(async () => (await call('get_usage'))['used_slide_count'], { timeout: 5_000, interval: 50 })
      .toBe(1);
    expect((await call('list_templates'))['templates']).toMatchObject([{ name: 'shared' }]);
    await client.close();

    // The link get_job gave, from the node that did not make the deck, opens the deck.
    const download = await fetch(job['download_url'] as string);
    expect(download.status).toBe(200);
    await expectValidPptx(new Uint8Array(await download.arrayBuffer()), SAMPLE);
    // initialize, its notification, then one request per tool call: both nodes answered, in turn.
    const nodesHit = new Set(balancer.landed);
    expect(nodesHit.size).toBe(2);
    expect(balancer.landed.length).toBeGreaterThanOrEqual(8);
  }, 120_000);
});

/** An HTTP balancer sending each request to the next of `targets` in turn; `landed` lists where each went. */
async function roundRobin(
  targets: string[],
): Promise<{ url: string; landed: string[]; close(): Promise<void> }> {
  const landed: string[] = [];
  let next = 0;
  const relay: Server = createServer((req, res) => {
    const target = new URL(targets[next++ % targets.length]!);
    landed.push(target.host);
    const forwarded = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    landed,
    close: () => new Promise((resolve) => relay.close(() => resolve())),
  };
}
