/**
 * The HTTP clients integrations use, each sending one multipart upload a number of times in a row as a user's
 * code would: Node's fetch, axios, Python's requests and curl (with and without its
 * `Expect: 100-continue`). A network failure is recorded as an answer of its own, so a test shows what each
 * client saw instead of stopping at the first throw.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import axios from 'axios';

const run = promisify(execFile);

export interface Upload {
  url: string;
  headers: Record<string, string>;
  files: { name: string; bytes: Uint8Array }[];
  jsonData: string;
}

/** What the client handed its caller: a status and the parsed body, or the error it threw. */
export type ClientAnswer = { status: number; body: unknown } | { error: string };

export type ClientRun = (upload: Upload, times: number) => Promise<ClientAnswer[]>;

function formOf(upload: Upload): FormData {
  const form = new FormData();
  for (const file of upload.files) form.append('files', new Blob([file.bytes]), file.name);
  form.append('jsonData', upload.jsonData);
  return form;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as { code?: unknown }).code;
  return [error.message, code, cause instanceof Error ? cause.message : cause].filter(Boolean).join(' / ');
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function nodeFetch(upload: Upload, times: number): Promise<ClientAnswer[]> {
  const answers: ClientAnswer[] = [];
  for (let i = 0; i < times; i++) {
    try {
      const response = await fetch(upload.url, {
        method: 'POST',
        headers: upload.headers,
        body: formOf(upload),
      });
      answers.push({ status: response.status, body: parsed(await response.text()) });
    } catch (error) {
      answers.push({ error: describeError(error) });
    }
  }
  return answers;
}

async function nodeAxios(upload: Upload, times: number): Promise<ClientAnswer[]> {
  const answers: ClientAnswer[] = [];
  for (let i = 0; i < times; i++) {
    try {
      const response = await axios.post(upload.url, formOf(upload), {
        headers: upload.headers,
        validateStatus: () => true,
        responseType: 'text',
        maxBodyLength: Infinity,
      });
      answers.push({ status: response.status, body: parsed(String(response.data)) });
    } catch (error) {
      answers.push({ error: describeError(error) });
    }
  }
  return answers;
}

/** One Session, as a Python integration keeps one: its pooled connection is reused after each answer. */
const PYTHON_CLIENT = `
import json, sys, requests
spec = json.load(open(sys.argv[1]))
files = [open(f["path"], "rb").read() for f in spec["files"]]
session = requests.Session()
for _ in range(spec["times"]):
    try:
        parts = [("files", (f["name"], data)) for f, data in zip(spec["files"], files)]
        parts.append(("jsonData", (None, spec["jsonData"])))
        r = session.post(spec["url"], headers=spec["headers"], files=parts, timeout=30)
        print(json.dumps({"status": r.status_code, "text": r.text}))
    except Exception as e:
        print(json.dumps({"error": type(e).__name__ + ": " + str(e)}))
`;

async function withFiles<T>(upload: Upload, use: (dir: string, paths: string[]) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-client-'));
  try {
    const paths = upload.files.map((file, i) => {
      const path = join(dir, `${i}-${file.name}`);
      writeFileSync(path, file.bytes);
      return path;
    });
    return await use(dir, paths);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function pythonRequests(upload: Upload, times: number): Promise<ClientAnswer[]> {
  return withFiles(upload, async (dir, paths) => {
    const spec = join(dir, 'spec.json');
    const files = upload.files.map((file, i) => ({ name: file.name, path: paths[i] }));
    writeFileSync(spec, JSON.stringify({ ...upload, files, times }));
    const { stdout } = await run('python3', ['-c', PYTHON_CLIENT, spec], { maxBuffer: 16 * 1024 * 1024 });
    return stdout
      .trim()
      .split('\n')
      .map((line) => {
        const answer = JSON.parse(line) as { status?: number; text?: string; error?: string };
        return answer.error !== undefined
          ? { error: answer.error }
          : { status: answer.status ?? 0, body: parsed(answer.text ?? '') };
      });
  });
}

/** One curl process making `times` transfers (its config's `next`), so it reuses its connection as it can. */
function curlRun(extraHeaders: string[]): ClientRun {
  return (upload, times) =>
    withFiles(upload, async (dir, paths) => {
      const jsonPath = join(dir, 'jsonData.json');
      writeFileSync(jsonPath, upload.jsonData);
      const headers = [
        ...Object.entries(upload.headers).map(([name, value]) => `${name}: ${value}`),
        ...extraHeaders,
      ];
      const block = (i: number) =>
        [
          `url = "${upload.url}"`,
          ...headers.map((header) => `header = "${header}"`),
          ...upload.files.map((file, f) => `form = "files=@${paths[f]};filename=${file.name}"`),
          `form = "jsonData=<${jsonPath}"`,
          `output = "${join(dir, `answer-${i}`)}"`,
          'write-out = "%{http_code} %{exitcode} %{errormsg}\\n"',
        ].join('\n');
      const config = join(dir, 'curl.config');
      writeFileSync(config, Array.from({ length: times }, (_, i) => block(i)).join('\nnext\n'));
      // Exit status is that of the last transfer; each transfer's own outcome is in its write-out line.
      const { stdout } = await run('curl', ['--silent', '--config', config]).catch(
        (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
      );
      return stdout
        .trim()
        .split('\n')
        .map((line, i): ClientAnswer => {
          const [code = '0', exit = '0', ...message] = line.split(' ');
          if (exit !== '0') return { error: `curl exit ${exit}: ${message.join(' ')}` };
          return { status: Number(code), body: parsed(readFileSync(join(dir, `answer-${i}`), 'utf8')) };
        });
    });
}

export const REAL_CLIENTS: Record<string, ClientRun> = {
  'Node fetch': nodeFetch,
  axios: nodeAxios,
  'Python requests': pythonRequests,
  curl: curlRun([]),
  'curl without Expect': curlRun(['Expect:']),
};
