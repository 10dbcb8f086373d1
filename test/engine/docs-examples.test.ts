/**
 * The examples of docs/*.md and README.md, run as a reader would run them, on the templates and pictures that ship
 * in examples/ (written by examples/make-*-template.ts):
 *
 * - Every ```json block is JSON, or one JSON value per line, or an excerpt marked by "…".
 * - A whole payload (`{"presentation": …}`) is sent to the real HTTP server (`POST /v1.0/generator/create`, the
 *   files it names as `files` parts) when every file it names is in examples/; it must answer 200 without a
 *   warning, and the deck passes expectValidPptx. One that names a URL needs the network and is not run; one
 *   that names another file must be listed in NOT_RUN, so a new example is never silently left out.
 * - A shape entry runs the same way on the first slide of a shipped template that has a shape of its name
 *   (else NOT_RUN).
 * - A quoted message is checked where the docs say `<!-- check: PAYLOAD -->` just before it: the engine runs
 *   PAYLOAD, and the next `quoted text` (or fenced block) must be its error or one of its warnings, as
 *   `path: message`, as the message alone (tables "after the path"), or, when it starts with "…", the end of it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, generate, inspect, type GenerateResult } from '../../src/engine/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';

const ROOT = new URL('../../', import.meta.url);
const PAGES = [
  ...readdirSync(new URL('docs/', ROOT))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'README.md',
];

/** What ships in examples/, by file name. */
const SHIPPED = new Map(
  readdirSync(new URL('examples/', ROOT))
    .filter((name) => /\.(pptx|png|jpg)$/.test(name))
    .map((name) => [name, new Uint8Array(readFileSync(new URL(`examples/${name}`, ROOT)))]),
);
/** The templates examples name, by the name the docs use. */
const TEMPLATES = new Map([...SHIPPED].filter(([name]) => name.endsWith('.pptx')));
/** The other files examples name (pictures), by the name the docs use. */
const IMAGES = new Map([...SHIPPED].filter(([name]) => !name.endsWith('.pptx')));

/** Examples not run, by page and what they need that no shipped template has. */
const NOT_RUN = new Map<string, string[]>([]);

type Json = Record<string, unknown>;

interface Block {
  page: string;
  line: number;
  values: unknown[];
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

function jsonBlocks(page: string, text: string): Block[] {
  return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => {
    const body = m[1]!;
    let values: unknown[];
    try {
      values = [JSON.parse(body)];
    } catch {
      // An excerpt ("subscriptions": [ … ]) shows a shape, not a document to send.
      values = body.includes('…')
        ? []
        : body
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => JSON.parse(line) as unknown);
    }
    return { page, line: lineOf(text, m.index), values };
  });
}

const TEXTS = new Map(PAGES.map((page) => [page, readFileSync(new URL(page, ROOT), 'utf8')]));
const BLOCKS = PAGES.flatMap((page) => jsonBlocks(page, TEXTS.get(page)!));

function isPayload(value: unknown): value is { presentation: Json } {
  return typeof value === 'object' && value !== null && 'presentation' in value;
}

/** Every file name or URL a payload names: templates, and picture sources given as file names or URLs. */
function filesNamed(presentation: Json): string[] {
  const named: string[] = [];
  if (typeof presentation.template === 'string') named.push(presentation.template);
  for (const entry of (presentation.template_list as Json[] | undefined) ?? [])
    named.push(entry.template as string);
  for (const slide of (presentation.slides as Json[] | undefined) ?? []) {
    for (const shape of (slide.shapes as Json[] | undefined) ?? []) {
      if (typeof shape.filename === 'string') named.push(shape.filename);
      if (typeof shape.content === 'string' && /^https?:|\.(png|jpe?g|gif|svg)$/i.test(shape.content))
        named.push(shape.content);
    }
  }
  return named.filter((name) => !name.startsWith('data:'));
}

/** The engine's answer, for the messages the docs quote. */
function run(presentation: Json): GenerateResult {
  const files = new Map(filesNamed(presentation).map((name) => [name, SHIPPED.get(name)!]));
  return generate({ payload: { presentation }, files });
}

let server: RunningServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  ({ token } = await server.signUp({ plan: 'Business' }));
}, 120_000);
afterAll(async () => server?.close());

/** The payload sent as a reader sends it: each file it names as a `files` part, `jsonData` as a field. */
async function generateOverHttp(
  presentation: Json,
): Promise<{ status: number; body: Uint8Array; warnings: unknown }> {
  const form = new FormData();
  for (const name of new Set(filesNamed(presentation)))
    form.append('files', new Blob([SHIPPED.get(name)!]), name);
  form.append('jsonData', JSON.stringify({ presentation }));
  const response = await fetch(`${server.base}/v1.0/generator/create`, {
    method: 'POST',
    headers: bearer(token),
    body: form,
  });
  const body = new Uint8Array(await response.arrayBuffer());
  const detail = response.headers.get('x-generation-warnings-detail');
  return {
    status: response.status,
    body,
    warnings: detail ? JSON.parse(detail) : response.status === 200 ? [] : new TextDecoder().decode(body),
  };
}

/** The shipped template and slide that have a shape of this name. */
function slideWithShape(name: string): { template: string; slide: number } | null {
  for (const [template, bytes] of TEMPLATES) {
    const slide = inspect(bytes).slides.findIndex((s) => s.shapes.some((shape) => shape.name === name));
    if (slide >= 0) return { template, slide };
  }
  return null;
}

interface Plan {
  label: string;
  payload: Json | null;
  missing: string | null;
}

function plan(block: Block, value: unknown, i: number): Plan {
  const label = `${block.page}:${block.line}${block.values.length > 1 ? ` #${i}` : ''}`;
  if (isPayload(value)) {
    const named = filesNamed(value.presentation);
    if (named.some((name) => /^https?:/.test(name))) return { label, payload: null, missing: 'network' };
    const unknown = named.find((name) => !TEMPLATES.has(name) && !IMAGES.has(name));
    return { label, payload: unknown ? null : value.presentation, missing: unknown ?? null };
  }
  const shape = value as Json;
  // An MCP tool call ({"name", "arguments"}, docs/mcp.md) names a stored template: test/mcp runs those.
  if (typeof shape.name !== 'string' || 'arguments' in shape) return { label, payload: null, missing: null };
  const found = slideWithShape(shape.name);
  if (!found) return { label, payload: null, missing: `shape "${shape.name}"` };
  return {
    label,
    payload: { template: found.template, slides: [{ slide_index: found.slide, shapes: [shape] }] },
    missing: null,
  };
}

const PLANS = BLOCKS.flatMap((block) => block.values.map((value, i) => plan(block, value, i)));

describe('the examples of the docs', () => {
  it('are found: json blocks in several pages, most of them run', () => {
    expect(BLOCKS.length).toBeGreaterThan(15);
    expect(PLANS.filter((p) => p.payload).length).toBeGreaterThanOrEqual(8);
  });

  it('leave out only what needs the network or is listed as needing a template the project lacks', () => {
    const notRun = new Map<string, Set<string>>();
    for (const p of PLANS) {
      if (!p.missing || p.missing === 'network') continue;
      const page = p.label.split(':')[0]!;
      notRun.set(page, (notRun.get(page) ?? new Set()).add(p.missing));
    }
    expect(Object.fromEntries([...notRun].map(([page, set]) => [page, [...set].sort()]))).toEqual(
      Object.fromEntries([...NOT_RUN].map(([page, list]) => [page, [...list].sort()])),
    );
  });

  it.each(PLANS.filter((p) => p.payload).map((p) => [p.label, p] as const))(
    '%s runs on the server without a warning and makes a sound deck',
    async (_label, p) => {
      const result = await generateOverHttp(p.payload!);
      expect({ status: result.status, warnings: result.warnings }).toEqual({ status: 200, warnings: [] });
      // A deck of several templates is checked against each, the one it is built on (the first slide's) first.
      const list = p.payload!.template_list as { template: string }[] | undefined;
      const names = list ? list.map((entry) => entry.template) : [p.payload!.template as string];
      await expectValidPptx(
        result.body,
        names.map((name) => TEMPLATES.get(name)!),
      );
    },
    120_000,
  );
});

interface Check {
  label: string;
  payload: Json;
  quoted: string;
}

/** `<!-- check: PAYLOAD -->` and the quoted text after it. */
function checks(page: string, text: string): Check[] {
  return [...text.matchAll(/<!-- check: ([\s\S]*?) -->/g)].map((m) => {
    const after = text.slice(m.index + m[0].length);
    const quote = /```\w*\n([\s\S]*?)\n```|`([^`]+)`/.exec(after);
    if (!quote) throw new Error(`${page}:${lineOf(text, m.index)}: nothing quoted after the check`);
    const payload = JSON.parse(m[1]!) as { presentation: Json };
    return {
      label: `${page}:${lineOf(text, m.index)}`,
      payload: payload.presentation,
      quoted: (quote[1] ?? quote[2])!,
    };
  });
}

const CHECKS = PAGES.flatMap((page) => checks(page, TEXTS.get(page)!));

function messagesOf(presentation: Json): { full: string; bare: string }[] {
  try {
    const result = run(presentation);
    return result.warnings.map((w) => ({ full: `${w.path}: ${w.message}`, bare: w.message }));
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    const bare = error.path ? error.message.slice(error.path.length + 2) : error.message;
    return [{ full: error.message, bare }];
  }
}

describe('the messages the docs quote', () => {
  it('are checked in several places', () => {
    expect(CHECKS.length).toBeGreaterThanOrEqual(5);
  });

  it.each(CHECKS.map((c) => [c.label, c] as const))('%s is what the engine says', (_label, c) => {
    const given = messagesOf(c.payload);
    const quoted = c.quoted.trim();
    const matches = given.some(({ full, bare }) =>
      quoted.startsWith('…') ? full.endsWith(quoted.slice(1).trim()) : quoted === full || quoted === bare,
    );
    expect(matches ? quoted : given.map((m) => m.full)).toEqual(quoted);
  });
});
