/** A local web server offering the template for download, so the template-by-link variant can be exercised. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { templateBytes } from './http-harness-paths.js';

export interface TemplateHost {
  /** `http://127.0.0.1:<port>/templates/layouts.pptx` */
  url: string;
  /** Requests received so far (the SSRF test proves none arrived). */
  hits: number;
  close(): Promise<void>;
}

export async function hostTemplate(): Promise<TemplateHost> {
  const bytes = templateBytes();
  const host: TemplateHost = { url: '', hits: 0, close: async () => undefined };
  const server = createServer((request, response) => {
    host.hits += 1;
    if (request.url === '/templates/layouts.pptx') {
      response.writeHead(200, {
        'content-type': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      });
      response.end(bytes);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  host.url = `http://127.0.0.1:${port}/templates/layouts.pptx`;
  host.close = () => new Promise((resolve) => server.close(() => resolve()));
  return host;
}

export interface GatedTemplateHost {
  /** `http://127.0.0.1:<port>/gated/<name>.pptx`: the template, served only once `release(name)` is called. */
  url(name: string): string;
  /** Resolves when the server has received the request for `name` (the consumer is fetching it now). */
  requested(name: string): Promise<void>;
  /** Lets the download of `name` finish. */
  release(name: string): void;
  close(): Promise<void>;
}

/**
 * The template behind links the test holds open: a job whose template is one of them stays PROCESSING (fetching)
 * until the test releases it, so job states are held on purpose instead of raced by a poll.
 */
export async function hostGatedTemplates(): Promise<GatedTemplateHost> {
  const bytes = templateBytes();
  const gates = new Map<
    string,
    { requested: () => void; wasRequested: Promise<void>; released: Promise<void>; release: () => void }
  >();
  const gate = (name: string) => {
    let entry = gates.get(name);
    if (!entry) {
      let requested = (): void => undefined;
      let release = (): void => undefined;
      const wasRequested = new Promise<void>((resolve) => (requested = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      entry = { requested, wasRequested, released, release };
      gates.set(name, entry);
    }
    return entry;
  };
  const server = createServer((request, response) => {
    const name = /^\/gated\/([\w-]+)\.pptx$/.exec(request.url ?? '')?.[1];
    if (!name) return void response.writeHead(404).end();
    const entry = gate(name);
    entry.requested();
    void entry.released.then(() => {
      response.writeHead(200, {
        'content-type': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
      });
      response.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/gated/${name}.pptx`,
    requested: (name) => gate(name).wasRequested,
    release: (name) => gate(name).release(),
    close: () =>
      new Promise((resolve) => {
        for (const entry of gates.values()) entry.release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
