/**
 * `deckforge mcp` on standard input and output (docs/mcp.md, "On your machine"), started as an agent starts it:
 * `bin/deckforge.js mcp` spawned by the SDK's own stdio client. `--local DIR` reaches nothing outside its folder
 * (`..`, absolute paths and symbolic links tried through every tool that names a file); `--url` serves a real
 * server's account through its REST API, with the token in DECKFORGE_TOKEN.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';

const SAMPLE = readFileSync(new URL('../../examples/sample-template.pptx', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'deckforge.js');
const LOGO = readFileSync(new URL('../../examples/logo.png', import.meta.url));

async function spawnMcp(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'deckforge-test', version: '1.0.0' });
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) base[k] = v;
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', ...args],
      env: { ...base, ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

type Structured = Record<string, unknown>;
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  const error = result.isError
    ? (JSON.parse((result.content as { text: string }[])[0]!.text) as { error: Structured }).error
    : null;
  return { structured: (result.structuredContent ?? {}) as Structured, error };
}

beforeAll(async () => ensureBuilt(), 300_000);

describe('deckforge mcp --local DIR', () => {
  let root: string;
  let folder: string;
  let client: Client;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'deckforge-mcp-local-'));
    folder = join(root, 'decks');
    mkdirSync(folder);
    writeFileSync(join(folder, 'sample.pptx'), SAMPLE);
    // Outside the folder: a template and a secret, and links in the folder pointing at them.
    writeFileSync(join(root, 'outside.pptx'), SAMPLE);
    writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET-CONTENT-42');
    symlinkSync(join(root, 'outside.pptx'), join(folder, 'linked.pptx'));
    writeFileSync(join(root, 'outside.png'), LOGO);
    symlinkSync(join(root, 'outside.png'), join(folder, 'picture.png'));
    client = await spawnMcp(['--local', folder]);
  });
  afterAll(async () => {
    await client?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("lists the folder's own templates, not a link to one outside", async () => {
    const { structured } = await call(client, 'list_templates');
    expect((structured['templates'] as Structured[]).map((t) => t['name'])).toEqual(['sample.pptx']);
  });

  it('fills a template of the folder into DIR/deckforge-output and counts the run', async () => {
    const jsonData = {
      presentation: {
        template: 'sample.pptx',
        slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'Local' }] }],
      },
    };
    const { structured } = await call(client, 'generate_deck', { jsonData });
    expect(structured).toMatchObject({ status: 'SUCCEEDED', slide_count: 1, download_url: null });
    expect(structured['file']).toBe(`deckforge-output/${structured['deck_id']}.pptx`);
    await expectValidPptx(new Uint8Array(readFileSync(join(folder, structured['file'] as string))), SAMPLE);
    expect((await call(client, 'get_usage')).structured).toMatchObject({ used_slide_count: 1 });
  });

  it('refuses .., absolute paths and symbolic links in every name it takes', async () => {
    const attempts: [string, Record<string, unknown>][] = [];
    for (const template of [
      '../outside.pptx',
      join(root, 'outside.pptx'),
      'linked.pptx',
      '..',
      'sub/../../outside.pptx',
    ]) {
      attempts.push(['describe_template', { template }]);
      attempts.push(['render_preview', { template, slides: [0] }]);
      attempts.push([
        'generate_deck',
        { jsonData: { presentation: { template, slides: [{ slide_index: 0 }] } } },
      ]);
    }
    // A real picture outside: read, it would fill the shape and the call would succeed.
    for (const picture of ['../outside.png', join(root, 'outside.png'), 'picture.png', '../secret.txt']) {
      attempts.push([
        'generate_deck',
        {
          jsonData: {
            presentation: {
              template: 'sample.pptx',
              slides: [{ slide_index: 2, shapes: [{ name: 'Contact', filename: picture }] }],
            },
          },
        },
      ]);
    }
    for (const name of ['../written.pptx', join(root, 'written.pptx'), 'linked.pptx/../../written']) {
      attempts.push(['upload_template', { name, content_base64: SAMPLE.toString('base64') }]);
    }
    attempts.push(['render_preview', { deck_id: '../../outside', slides: [0] }]);
    attempts.push(['upload_template', { name: 'fetched', url: 'http://127.0.0.1:9/x.pptx' }]);
    for (const [tool, args] of attempts) {
      const { error } = await call(client, tool, args);
      expect(error, `${tool} ${JSON.stringify(args).slice(0, 120)}`).not.toBeNull();
      expect(['invalid_input', 'not_found']).toContain(error!['category']);
      expect(JSON.stringify(error)).not.toContain('TOP-SECRET-CONTENT-42');
    }
    // Nothing was written outside, and the link still points where it did.
    expect(readdirSync(root).sort()).toEqual(['decks', 'outside.png', 'outside.pptx', 'secret.txt']);
    expect(readFileSync(join(root, 'outside.pptx'))).toEqual(SAMPLE);
  });
});

describe('deckforge mcp --url URL', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it("serves the token's account through the REST API: upload, describe, dry run, generate", async () => {
    const { token } = await server.signUp();
    const client = await spawnMcp(['--url', server.base], { DECKFORGE_TOKEN: token });
    try {
      const upload = await call(client, 'upload_template', {
        name: 'sample',
        content_base64: SAMPLE.toString('base64'),
      });
      expect(upload.structured).toMatchObject({ created: true, template: { name: 'sample', slides: 3 } });
      const described = await call(client, 'describe_template', { template: 'sample' });
      expect((described.structured['slides'] as unknown[]).length).toBe(3);
      const jsonData = {
        presentation: {
          template: 'sample',
          slides: [{ slide_index: 1, shapes: [{ name: 'Titel', content: 'Remote' }] }],
        },
      };
      const dry = await call(client, 'generate_deck', { jsonData, dry_run: true });
      expect(dry.structured['problems']).toContainEqual(
        expect.objectContaining({ code: 'unknown_shape', closest: expect.arrayContaining(['Title']) }),
      );
      const deck = await call(client, 'generate_deck', {
        jsonData: {
          presentation: {
            template: 'sample',
            slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'Remote' }] }],
          },
        },
      });
      expect(deck.structured).toMatchObject({ status: 'SUCCEEDED' });
      const bytes = new Uint8Array(
        await (await fetch(deck.structured['download_url'] as string)).arrayBuffer(),
      );
      await expectValidPptx(bytes, SAMPLE);
      // The server's error code comes through the remote backend (the client reads X-Deckforge-Error-Code).
      expect((await call(client, 'get_job', { job_id: 'no-such-job' })).error).toMatchObject({
        category: 'not_found',
        code: 'DECKFORGE_NOT_FOUND',
      });
    } finally {
      await client.close();
    }
  });

  it('a wrong token is an auth error of the tool', async () => {
    const client = await spawnMcp(['--url', server.base], { DECKFORGE_TOKEN: 'wrong' });
    try {
      expect((await call(client, 'list_templates')).error).toMatchObject({
        category: 'auth',
        code: 'DECKFORGE_UNAUTHORIZED',
      });
    } finally {
      await client.close();
    }
  });
});
