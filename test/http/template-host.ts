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
