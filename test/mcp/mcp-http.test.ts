/**
 * `/mcp` on the real server over a real socket (docs/mcp.md, "Over HTTP"), driven by clients nobody here wrote: the
 * SDK's own Client over Streamable HTTP, the MCP Inspector's CLI and the conformance suite's generic server
 * scenarios. A tool call is counted, throttled and isolated like the REST call it stands for; no token is a 401
 * the SDK reports as such. One server for the file; each test makes its own accounts.
 */
import { execFile } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

const run = promisify(execFile);
const SAMPLE = readFileSync(new URL('../../examples/sample-template.pptx', import.meta.url));
const PLANS = [
  { name: 'Free', allowedSlideCount: 100, requestsPerMinute: 600 },
  { name: 'Tight', allowedSlideCount: 100, requestsPerMinute: 4 },
];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ plans: PLANS });
});
afterAll(async () => server?.close());

async function connect(token: string | null): Promise<Client> {
  const client = new Client({ name: 'deckforge-test', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : bearer(token);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.base}/mcp`), { requestInit: { headers } }),
  );
  return client;
}

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const error = result.isError
    ? (JSON.parse((result.content as { text: string }[])[0]!.text) as { error: Structured }).error
    : null;
  return { result, structured: (result.structuredContent ?? {}) as Structured, error };
}

async function restUsage(token: string): Promise<Structured> {
  const response = await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) });
  return ((await response.json()) as { result: Structured }).result;
}

const payload = (template: string) => ({
  presentation: {
    template,
    slides: [
      {
        slide_index: 1,
        shapes: [
          { name: 'Title', content: 'Highlights' },
          { name: 'Body', content: 'One\nTwo' },
        ],
      },
    ],
  },
});

describe('/mcp over Streamable HTTP', () => {
  it('the SDK client lists the seven tools and fills a template: upload, describe, generate, job, download', async () => {
    const { token } = await server.signUp();
    const client = await connect(token);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual([
      'list_templates',
      'upload_template',
      'describe_template',
      'generate_deck',
      'get_job',
      'render_preview',
      'get_usage',
    ]);
    const upload = await call(client, 'upload_template', {
      name: 'sample',
      content_base64: SAMPLE.toString('base64'),
    });
    expect(upload.structured).toMatchObject({
      created: true,
      template: { name: 'sample', version: 1, slides: 3 },
    });
    const described = await call(client, 'describe_template', { template: 'sample' });
    const body = (described.structured['slides'] as { shapes: Structured[] }[])[1]!.shapes.find(
      (s) => s['name'] === 'Body',
    )!;
    expect(body).toMatchObject({
      kind: 'text',
      placeholder: 'obj',
      capacity: { lines: expect.any(Number), chars: expect.any(Number) },
    });
    const deck = await call(client, 'generate_deck', { jsonData: payload('sample') });
    expect(deck.structured).toMatchObject({ status: 'SUCCEEDED', slide_count: 1, warnings: [] });
    const job = await call(client, 'get_job', { job_id: deck.structured['deck_id'] });
    expect(job.structured).toMatchObject({ status: 'SUCCEEDED', deck_id: deck.structured['deck_id'] });
    const downloaded = await fetch(job.structured['download_url'] as string);
    expect(downloaded.status).toBe(200);
    const bytes = new Uint8Array(await downloaded.arrayBuffer());
    await expectValidPptx(bytes, SAMPLE);
    // A small deck is kept beside its job in the SQLite file (docs/operations.md, "The data directory"): no
    // folder, no file of its own, and the deck_id previews the same bytes.
    expect(existsSync(join(server.dataDir, 'blobs', 'jobs', deck.structured['deck_id'] as string))).toBe(
      false,
    );
    const again = await fetch(deck.structured['download_url'] as string);
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    await client.close();
  });

  it('render_preview draws chosen slides of a template and a whole generated deck, as PNGs within max_side, one slide charged per picture', async () => {
    const { token } = await server.signUp();
    const client = await connect(token);
    await call(client, 'upload_template', { name: 'sample', content_base64: SAMPLE.toString('base64') });
    const pictures = (result: object) =>
      ((result as { content: unknown }).content as { type: string; data?: string; mimeType?: string }[])
        .filter((c) => c.type === 'image')
        .map((c) => {
          expect(c.mimeType).toBe('image/png');
          const png = Buffer.from(c.data!, 'base64');
          // IHDR: width and height, big-endian, at bytes 16 and 20 of a PNG.
          return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
        });
    // Two slides of the template, the second first: a copy of those slides is drawn.
    const chosen = await call(client, 'render_preview', {
      template: 'sample',
      slides: [2, 0],
      max_side: 320,
    });
    expect(chosen.error).toBeNull();
    expect(chosen.structured).toMatchObject({
      slides: [
        { index: 2, image: 0 },
        { index: 0, image: 1 },
      ],
      missing: [],
    });
    const drawn = pictures(chosen.result);
    expect(drawn).toHaveLength(2);
    for (const size of drawn) expect(Math.max(size.width, size.height)).toBe(320);
    // A deck just made, every slide of it in order: the deck itself is drawn.
    const deck = await call(client, 'generate_deck', { jsonData: payload('sample') });
    const whole = await call(client, 'render_preview', { deck_id: deck.structured['deck_id'], slides: [0] });
    expect(whole.error).toBeNull();
    expect(pictures(whole.result).map((size) => Math.max(size.width, size.height))).toEqual([1024]);
    // Two pictures, one picture and the deck's one slide.
    expect((await restUsage(token))['usedSlideCount']).toBe(4);
    await client.close();
  });

  it('a dry run names an unknown shape with the closest names, overflowing text and an unfilled tag, and charges nothing', async () => {
    const { token } = await server.signUp();
    const client = await connect(token);
    await call(client, 'upload_template', { name: 'sample', content_base64: SAMPLE.toString('base64') });
    const jsonData = {
      presentation: {
        template: 'sample',
        slides: [
          {
            slide_index: 0,
            shapes: [{ name: 'Title', content: 'x' }],
            tags: [{ key: 'company', value: 'Acme' }],
          },
          {
            slide_index: 1,
            shapes: [
              { name: 'Bodyy', content: 'x' },
              { name: 'Title', content: 'word '.repeat(200) },
            ],
          },
        ],
      },
    };
    const dry = await call(client, 'generate_deck', { jsonData, dry_run: true });
    const problems = dry.structured['problems'] as Structured[];
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: 'unknown_shape',
        path: 'presentation.slides[1].shapes[0].name',
        closest: expect.arrayContaining(['Body']),
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: 'text_over_capacity',
        path: 'presentation.slides[1].shapes[1].content',
      }),
    );
    expect(problems).toContainEqual(
      expect.objectContaining({
        code: 'tag_unfilled',
        path: 'presentation.slides[0]',
        message: expect.stringContaining('{{quarter}}'),
      }),
    );
    expect(problems.filter((p) => p['code'] === 'tag_unfilled')).toHaveLength(1); // {{company}} is given
    expect(
      (dry.structured['warnings'] as Structured[]).some((w) =>
        /overflows its box/.test(w['message'] as string),
      ),
    ).toBe(true);
    expect(dry.structured['ok']).toBe(false);
    expect((await restUsage(token))['usedSlideCount']).toBe(0);
    await client.close();
  });

  it('counted: each tool call is one API call and its slides count as the REST call does', async () => {
    const { token } = await server.signUp();
    await fetch(`${server.base}/v1.0/templates`, {
      method: 'POST',
      headers: bearer(token),
      body: templateForm(),
    });
    const before = await restUsage(token);
    const client = await connect(token);
    await call(client, 'generate_deck', { jsonData: payload('sample') }); // 1 slide, a success
    const failed = await call(client, 'describe_template', { template: 'nope' }); // a failure
    expect(failed.error).toMatchObject({
      category: 'not_found',
      closest: ['sample'],
      code: 'DECKFORGE_NOT_FOUND',
    });
    const after = await restUsage(token);
    // The usage call itself counts once more, as every REST call does.
    expect(after['usedSlideCount']).toBe((before['usedSlideCount'] as number) + 1);
    expect(after['successfulApiCallCount']).toBe((before['successfulApiCallCount'] as number) + 2);
    expect(after['failedApiCallCount']).toBe((before['failedApiCallCount'] as number) + 1);
    await client.close();
  });

  it("throttled: the account's request rate trips on tool calls as on REST calls, as a quota error", async () => {
    const { token } = await server.signUp({ plan: 'Tight' });
    const client = await connect(token);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await call(client, 'get_usage'));
    expect(answers.slice(0, 4).every((a) => a.error === null)).toBe(true);
    expect(answers[4]!.error).toMatchObject({ category: 'quota', code: 'DECKFORGE_RATE_LIMITED' });
    expect(String(answers[4]!.error!['message'])).toMatch(/requests? per minute|rate/i);
    expect((await fetch(`${server.base}/v1.0/usage`, { headers: bearer(token) })).status).toBe(429);
    await client.close();
  });

  it("isolated: account B sees none of A's templates, jobs or decks, by name or by id", async () => {
    const a = await server.signUp();
    const b = await server.signUp();
    const clientA = await connect(a.token);
    const uploaded = await call(clientA, 'upload_template', {
      name: 'secret',
      content_base64: SAMPLE.toString('base64'),
    });
    const templateId = (uploaded.structured['template'] as Structured)['id'];
    const deck = await call(clientA, 'generate_deck', { jsonData: payload('secret') });
    const clientB = await connect(b.token);
    expect((await call(clientB, 'list_templates')).structured).toEqual({ templates: [] });
    for (const template of ['secret', templateId]) {
      expect((await call(clientB, 'describe_template', { template })).error).toMatchObject({
        category: 'not_found',
      });
      expect((await call(clientB, 'render_preview', { template, slides: [0] })).error).toMatchObject({
        category: 'not_found',
      });
    }
    expect((await call(clientB, 'get_job', { job_id: deck.structured['deck_id'] })).error).toMatchObject({
      category: 'not_found',
    });
    expect(
      (await call(clientB, 'render_preview', { deck_id: deck.structured['deck_id'], slides: [0] })).error,
    ).toMatchObject({ category: 'not_found' });
    expect(
      (await call(clientB, 'generate_deck', { jsonData: payload(templateId as string) })).error,
    ).toMatchObject({ category: 'invalid_input' });
    await Promise.all([clientA.close(), clientB.close()]);
  });

  it('401 without a token, or with a wrong one: the SDK client reports the status', async () => {
    for (const token of [null, 'not-a-token']) {
      const error = await connect(token).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StreamableHTTPError);
      expect((error as StreamableHTTPError).code).toBe(401);
    }
    const raw = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get('www-authenticate')).toBe('Bearer');
    expect(await raw.json()).toMatchObject({ statusCode: 401, message: 'Unauthorized' });
  });

  it('an answer of /mcp goes through the hooks every route has: its log line, /metrics, the security headers', async () => {
    const { token } = await server.signUp();
    const metricsLine = async (): Promise<number> => {
      const text = await (await fetch(`${server.base}/metrics`)).text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            /^deckforge_http_requests_total\{/.test(l) && /route="\/mcp"/.test(l) && /status="200"/.test(l),
        );
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    const before = await metricsLine();
    const answer = await fetch(`${server.base}/mcp`, {
      method: 'POST',
      headers: {
        ...bearer(token),
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-request-id': 'mcp-hooks-1',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(answer.headers.get('x-request-id')).toBe('mcp-hooks-1');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await metricsLine()).toBe(before + 1);
    const logged = server.logs
      .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; res?: { statusCode?: number } })
      .filter((entry) => entry.msg === 'request completed' && entry.reqId === 'mcp-hooks-1');
    expect(logged).toHaveLength(1);
    expect(logged[0]!.res?.statusCode).toBe(200);
  });

  it('arguments an agent got wrong are invalid_input naming the argument; an unknown tool stays a protocol error', async () => {
    const { token } = await server.signUp();
    const client = await connect(token);
    expect((await call(client, 'generate_deck', { jsonData: '{"presentation":{}}' })).error).toMatchObject({
      category: 'invalid_input',
      path: 'arguments.jsonData',
    });
    expect((await call(client, 'generate_deck', { jsonData: {}, dryRun: true })).error).toMatchObject({
      category: 'invalid_input',
      closest: ['dry_run'],
    });
    expect((await call(client, 'render_preview', { template: 'x', slides: [-1] })).error).toMatchObject({
      path: 'arguments.slides[0]',
    });
    const payloadError = await call(client, 'generate_deck', {
      jsonData: { presentation: { template: 'x', slides: 'all' } },
    });
    expect(payloadError.error).toMatchObject({ category: 'invalid_input' });
    expect(String(payloadError.error!['message'])).toMatch(/presentation\.slides/);
    await expect(client.callTool({ name: 'generate_decks', arguments: {} })).rejects.toThrow(
      /did you mean "generate_deck"/,
    );
    const get = await fetch(`${server.base}/mcp`, { headers: bearer(token) });
    expect(get.status).toBe(405);
    await client.close();
  });

  it("the Inspector CLI lists the tools and calls one with the account's token", async () => {
    const { token } = await server.signUp();
    const inspector = new URL(
      '../../node_modules/@modelcontextprotocol/inspector-cli/build/index.js',
      import.meta.url,
    ).pathname;
    // It finds its own package.json from the folder it is started in.
    const cwd = new URL('../../node_modules/@modelcontextprotocol/inspector-cli/build/', import.meta.url)
      .pathname;
    const header = ['--header', `Authorization: Bearer ${token}`];
    const listed = await run(
      process.execPath,
      [inspector, `${server.base}/mcp`, '--transport', 'http', ...header, '--method', 'tools/list'],
      { cwd },
    );
    const tools = (JSON.parse(listed.stdout) as { tools: { name: string; inputSchema: Structured }[] }).tools;
    expect(tools.map((t) => t.name)).toContain('describe_template');
    expect(tools.find((t) => t.name === 'upload_template')!.inputSchema['required']).toEqual(['name']);
    const called = await run(
      process.execPath,
      [
        inspector,
        `${server.base}/mcp`,
        '--transport',
        'http',
        ...header,
        '--method',
        'tools/call',
        '--tool-name',
        'get_usage',
      ],
      { cwd },
    );
    expect(JSON.parse(called.stdout)).toMatchObject({
      structuredContent: { used_slide_count: 0, plan: 'Free' },
    });
  });

  it("the conformance suite's generic server scenarios pass (server-initialize, ping, tools-list)", async () => {
    const node = nodeForConformance();
    if (node === null) {
      expect(
        process.env['CI'],
        'CI must give the conformance suite a Node 22+ (DECKFORGE_TEST_NODE24)',
      ).not.toBe('true');
      console.warn('conformance scenarios skipped: they need Node 22 or newer (set DECKFORGE_TEST_NODE24)');
      return;
    }
    const { token } = await server.signUp();
    // The suite's client sends no headers of its own: a gateway in front adds the account's token, as a proxy would.
    const gateway = await tokenGateway(`${server.base}`, token);
    try {
      const suite = new URL(
        '../../node_modules/@modelcontextprotocol/conformance/dist/index.js',
        import.meta.url,
      ).pathname;
      for (const scenario of ['server-initialize', 'ping', 'tools-list']) {
        const { stdout } = await run(
          node,
          [suite, 'server', '--url', `${gateway.url}/mcp`, '--scenario', scenario],
          { env: { ...process.env, NO_COLOR: '1' } },
        );
        expect(stdout, scenario).toMatch(/Passed:\s*\d+\/\d+, 0 failed/);
      }
    } finally {
      await gateway.close();
    }
  });
});

function templateForm(): FormData {
  const form = new FormData();
  form.append('file', new Blob([SAMPLE]), 'sample.pptx');
  form.append('name', 'sample');
  return form;
}

/** Node 22 or newer for the conformance suite (it uses fs.globSync): this one, or DECKFORGE_TEST_NODE24. */
function nodeForConformance(): string | null {
  const given = process.env['DECKFORGE_TEST_NODE24'];
  if (given) return given;
  return Number(process.versions.node.split('.')[0]) >= 22 ? process.execPath : null;
}

/** An HTTP relay that adds `Authorization: Bearer <token>` to every request it passes on. */
async function tokenGateway(
  target: string,
  token: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const upstream = new URL(target);
  const relay: Server = createServer((req, res) => {
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, authorization: `Bearer ${token}` },
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
  const address = relay.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () => new Promise((resolve) => relay.close(() => resolve())),
  };
}
