/**
 * Messages that name what is wrong, over a real socket (docs/http-api.md, Generating): a misspelt form field or
 * payload key is named with the one it stands for, every problem of a request comes in one 400, and uploaded
 * files the payload misuses or never uses are named in the warnings of the deck.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { png } from '../support/decks/test-images.js';
import { ensureBuilt } from '../support/servers/build-once.js';
import { bearer, startServer, type RunningServer } from '../support/servers/http-harness.js';
import { REPO_ROOT } from '../support/servers/http-harness-paths.js';

const SAMPLE = new Uint8Array(readFileSync(join(REPO_ROOT, 'examples', 'sample-template.pptx')));

let server: RunningServer;
let token: string;
beforeAll(async () => {
  await ensureBuilt();
  server = await startServer();
  token = (await server.signUp()).token;
}, 300_000);
afterAll(async () => server.close());

function post(body: FormData | string, contentType?: string): Promise<Response> {
  const headers: Record<string, string> = { ...bearer(token) };
  if (contentType) headers['content-type'] = contentType;
  return fetch(`${server.base}/v1.0/generator/create`, { method: 'POST', headers, body });
}

function upload(fields: Record<string, string>, files: Record<string, Uint8Array> = { 't.pptx': SAMPLE }) {
  const body = new FormData();
  for (const [name, bytes] of Object.entries(files)) body.append('files', new Blob([bytes]), name);
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return body;
}

async function details(response: Response): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { statusCode: number; message: string; details: string };
  expect([body.statusCode, body.message]).toEqual([400, 'Invalid input parameters']);
  return body.details;
}

const oneSlide = { presentation: { template: 't.pptx', slides: [{ slide_index: 0 }] } };

describe('a misspelt form field', () => {
  it('is named with the field it stands for', async () => {
    const response = await post(upload({ jsonDat: JSON.stringify(oneSlide) }));
    expect(await details(response)).toBe(
      'unknown form field "jsonDat" (did you mean "jsonData"?): a generation request takes the fields files, ' +
        'jsonData, callback_url, format, previews, preview_width',
    );
  });

  it('beside jsonData is named too, rather than its value dropped', async () => {
    const response = await post(upload({ jsonData: JSON.stringify(oneSlide), formt: 'pdf' }));
    expect(await details(response)).toContain('unknown form field "formt" (did you mean "format"?)');
  });

  it('in a JSON body is named', async () => {
    const response = await post(JSON.stringify({ jsonDta: oneSlide }), 'application/json');
    expect(await details(response)).toContain('unknown form field "jsonDta" (did you mean "jsonData"?)');
  });
});

it('a misspelt payload key is named with the key it stands for', async () => {
  const payload = { presentation: { tempalte: 't.pptx', slides: [{ slide_index: 0 }] } };
  const response = await post(upload({ jsonData: JSON.stringify(payload) }));
  expect(await details(response)).toBe(
    'presentation: expected template or template_list, got none of them; unknown key "tempalte" given ' +
      '(did you mean "template"?)',
  );
});

it('an object given to a text shape says what a text shape takes', async () => {
  const payload = {
    presentation: {
      template: 't.pptx',
      slides: [{ slide_index: 0, shapes: [{ name: 'Title', content: { text: 'x' } }] }],
    },
  };
  const text = await details(await post(upload({ jsonData: JSON.stringify(payload) })));
  expect(text).toContain('a text shape takes a string ("content": "x") or an array of runs');
  expect(text).not.toContain('series or data');
});

it('every problem the template reveals comes in one 400', async () => {
  const payload = {
    presentation: {
      template: 't.pptx',
      slides: [
        { slide_index: 7 },
        {
          slide_index: 0,
          shapes: [
            { name: 'Title', content: [['a']] },
            { name: 'Subtitle', filename: 'logo.png' },
          ],
        },
      ],
    },
  };
  const text = await details(await post(upload({ jsonData: JSON.stringify(payload) })));
  expect(text).toMatch(
    /^3 problems: \(1\) presentation\.slides\[0\]\.slide_index: slide_index 7 is out of range/,
  );
  expect(text).toContain(
    '(2) presentation.slides[1].shapes[0].content: shape "Title" is a text shape but content is a table',
  );
  expect(text).toContain(
    '(3) presentation.slides[1].shapes[1].filename: picture "logo.png" is not among the uploaded files',
  );
});

it("a schema problem does not hide the template's: both come in one 400", async () => {
  const payload = {
    presentation: {
      template: 't.pptx',
      shape_validation_mode: 'strict',
      slides: [
        { slide_index: 0, tag_validation_mode: 'sometimes', shapes: [{ name: 'Title', content: 'x' }] },
        { slide_index: 0, shapes: [{ name: 'Titel', content: 'y' }] },
      ],
    },
  };
  const text = await details(await post(upload({ jsonData: JSON.stringify(payload) })));
  expect(text).toMatch(/^2 problems: \(1\) presentation\.slides\[0\]\.tag_validation_mode: expected /);
  expect(text).toContain(
    '(2) presentation.slides[1].shapes[0]: slide has no shape named "Titel" (did you mean "Title"?); its shapes ' +
      'are: "Title", "Subtitle"',
  );
});

it('a picture file name sent to a text shape and an unused upload are warned about', async () => {
  const logo = await png(16, 16);
  const payload = {
    presentation: {
      template: 't.pptx',
      tags: [
        { key: 'company', value: 'Acme' },
        { key: 'quarter', value: 'Q3' },
      ],
      slides: [{ slide_index: 0, shapes: [{ name: 'Title', content: 'logo.png' }] }],
    },
  };
  const response = await post(
    upload({ jsonData: JSON.stringify(payload) }, { 't.pptx': SAMPLE, 'logo.png': logo, 'unused.png': logo }),
  );
  expect(response.status).toBe(200);
  await expectValidPptx(new Uint8Array(await response.arrayBuffer()), SAMPLE);
  const warnings = JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as {
    path: string;
    message: string;
  }[];
  expect(warnings.map((w) => w.path)).toEqual(['presentation.slides[0].shapes[0].content', 'files', 'files']);
  expect(warnings[0]?.message).toContain(
    '"logo.png" is the name of an uploaded file, but shape "Title" is a text shape',
  );
  expect(warnings[2]?.message).toBe(
    'uploaded file "unused.png" is not used: no template or picture of the payload names it',
  );
});

describe('names that match nothing', () => {
  it('still give the deck (lenient), and say so in one short header beside the detailed one', async () => {
    const payload = {
      presentation: {
        template: 't.pptx',
        tags: [{ key: 'quarter', value: 'Q3' }],
        slides: [
          { slide_index: 0 },
          {
            slide_index: 1,
            shapes: [
              { name: 'Titel', content: 'Highlights' },
              { name: 'body', content: 'Revenue up' },
              { name: 'Footnote', contents: 'Source: us' },
            ],
          },
        ],
      },
    };
    const response = await post(upload({ jsonData: JSON.stringify(payload) }));
    expect(response.status).toBe(200);
    await expectValidPptx(new Uint8Array(await response.arrayBuffer()), SAMPLE);
    expect(response.headers.get('x-generation-unmatched')).toBe(
      '4 matched nothing: key "contents" (did you mean "content"?) at slides[1].shapes[2].contents; ' +
        '{{company}} unfilled at output slide 0, shape "Subtitle"; shape "Titel" (did you mean "Title"?) at slides[1].shapes[0]; ' +
        'shape "body" (did you mean "Body"?) at slides[1].shapes[1] (X-Generation-Warnings-Detail has them all)',
    );
    const detail = JSON.parse(response.headers.get('x-generation-warnings-detail') ?? '[]') as {
      code?: string;
      message: string;
    }[];
    expect(detail.map((w) => w.code)).toEqual([
      'UNKNOWN_KEY',
      'TAG_UNFILLED',
      'SHAPE_NOT_FOUND',
      'SHAPE_NOT_FOUND',
    ]);
    expect(detail[1]?.message).toBe(
      'output slide 0: shape "Subtitle" still shows {{company}}: no tag "company" was given',
    );
  });

  it('are not mentioned when everything matched', async () => {
    const payload = {
      presentation: {
        template: 't.pptx',
        slides: [{ slide_index: 1, shapes: [{ name: 'Title', content: 'Highlights' }] }],
      },
    };
    const response = await post(upload({ jsonData: JSON.stringify(payload) }));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-generation-warnings')).toBe('0');
    expect(response.headers.has('x-generation-unmatched')).toBe(false);
  });
});

describe('malformed JSON', () => {
  const broken =
    '{\n  "presentation": {\n    "template": "t.pptx",\n    "slides": [{"slide_index": 0},]\n  }\n}';

  it('in the jsonData field is told with its line and column, and what to change', async () => {
    expect(await details(await post(upload({ jsonData: broken })))).toBe(
      'jsonData: not valid JSON at line 4, column 35: unexpected "]", expected a value; remove the "," before ' +
        'this "]" (JSON allows no trailing comma)',
    );
  });

  it('as an application/json body is told the same way', async () => {
    expect(await details(await post(broken, 'application/json'))).toBe(
      'request body: not valid JSON at line 4, column 35: unexpected "]", expected a value; remove the "," ' +
        'before this "]" (JSON allows no trailing comma)',
    );
  });
});

describe('a request without the form', () => {
  it('sent as curl -d @payload.json sends it (urlencoded) says what was expected, with the curl line', async () => {
    const text = await details(await post(JSON.stringify(oneSlide), 'application/x-www-form-urlencoded'));
    expect(text).toMatch(
      /^the body is JSON sent as application\/x-www-form-urlencoded \(curl -d without a Content-Type\); send files/,
    );
    expect(text).toContain(
      'as multipart/form-data, as `curl -F files=@template.pptx -F jsonData=@payload.json …`',
    );
    expect(text).toContain('-H "Content-Type: application/json" -d @payload.json');
  });

  it('with no body at all names jsonData and the form', async () => {
    const response = await fetch(`${server.base}/v1.0/generator/create`, {
      method: 'POST',
      headers: bearer(token),
    });
    const text = await details(response);
    expect(text).toMatch(
      /^jsonData: required form field is missing; send files \(the template, and any pictures\)/,
    );
    expect(text).toContain('curl -F files=@template.pptx -F jsonData=@payload.json');
  });
});

it('a 0-byte template is refused up front, on every route that takes one, with one message', async () => {
  const empty = new Uint8Array(0);
  const jsonData = JSON.stringify({ presentation: { template: 'empty.pptx', slides: [{ slide_index: 0 }] } });
  const routes: [string, FormData][] = [
    ['/v1.0/generator/create', upload({ jsonData }, { 'empty.pptx': empty })],
    ['/v2.0/generator/create-async', upload({ jsonData }, { 'empty.pptx': empty })],
    ['/v1.0/render', upload({}, { 'empty.pptx': empty })],
    ['/v1.0/template/inspect', upload({}, { 'empty.pptx': empty })],
  ];
  const stored = new FormData();
  stored.append('file', new Blob([empty]), 'empty.pptx');
  routes.push(['/v1.0/templates', stored]);
  for (const [route, body] of routes) {
    const response = await fetch(`${server.base}${route}`, { method: 'POST', headers: bearer(token), body });
    const field = route === '/v1.0/templates' ? 'file' : 'files';
    expect([route, await details(response)]).toEqual([
      route,
      `${field}: the template "empty.pptx" is empty (0 bytes); upload the file itself`,
    ]);
  }
});
