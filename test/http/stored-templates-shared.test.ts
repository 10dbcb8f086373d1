/**
 * Stored templates on the shared stores (docs/http-api.md, "Stored templates"): two API nodes, each with its own
 * data directory, on one PostgreSQL database and one S3 bucket. A template stored through one node is listed,
 * used by name, downloaded and deleted through the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgDatabase } from '../../src/adapters/postgres/pg-database.js';
import { migratePg } from '../../src/adapters/postgres/pg-schema.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { titleDeck, uploadForm } from '../support/http/payloads.js';
import { bearer, expectShapeB, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { templateBytes } from '../support/servers/http-harness-paths.js';
import { startLocalS3, type LocalS3 } from '../support/servers/s3-server.js';
import { createTestDatabase, testPostgresUrl } from '../support/servers/shared-stores.js';

const serverUrl = await testPostgresUrl();

describe.skipIf(serverUrl === null)('stored templates on PostgreSQL and S3, through two nodes', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let s3: LocalS3;
  let nodes: RunningServer[] = [];

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
  }, 120_000);
  afterAll(async () => {
    for (const node of nodes) await node.close();
    await s3?.stop();
    await database?.drop();
  });

  it('stores through one node and lists, generates, downloads and deletes through the other', async () => {
    const [a, b] = nodes as [RunningServer, RunningServer];
    const { token } = await a.signUp();
    const form = new FormData();
    form.append('file', new Blob([templateBytes()]), 'shared.pptx');
    const stored = await fetch(`${a.base}/v1.0/templates`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(stored.status).toBe(201);
    const { id } = (await stored.json()) as { id: string };

    const list = (await (await fetch(`${b.base}/v1.0/templates`, { headers: bearer(token) })).json()) as {
      templates: { id: string }[];
    };
    expect(list.templates.map((t) => t.id)).toEqual([id]);
    const deck = await fetch(`${b.base}/v1.0/generator/create`, {
      method: 'POST',
      body: uploadForm(titleDeck(2, { template: 'shared.pptx' }), []),
      headers: bearer(token),
    });
    expect(deck.status).toBe(200);
    await expectValidPptx(new Uint8Array(await deck.arrayBuffer()), templateBytes());
    const file = await fetch(`${b.base}/v1.0/templates/${id}/file`, { headers: bearer(token) });
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(templateBytes());

    const deleted = await fetch(`${b.base}/v1.0/templates/${id}`, {
      method: 'DELETE',
      headers: bearer(token),
    });
    expect(deleted.status).toBe(200);
    await expectShapeB(
      await fetch(`${a.base}/v1.0/templates/${id}`, { headers: bearer(token) }),
      404,
      'Not Found',
    );
  }, 60_000);
});
