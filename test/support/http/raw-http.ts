/** Bytes on a socket, for requests no HTTP client would send (malformed chunks, oversized headers). */
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `request` as written and reads until the server closes the connection or `timeoutMs` passes. */
export async function rawRequest(base: string, request: string, timeoutMs = 10_000): Promise<RawResponse> {
  const { hostname, port } = new URL(base);
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('utf8'));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
    socket.end(request);
  });
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body };
}

/** A client holding one keep-alive connection: every request it sends reuses the same socket when it can. */
export function oneConnectionClient(base: string) {
  const { hostname, port } = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    /** POSTs `form` (multipart); resolves to the status, or 0 when no answer came within `timeoutMs`. */
    async post(path: string, form: FormData, headers: Record<string, string>, timeoutMs = 10_000) {
      const encoded = new Response(form);
      const body = Buffer.from(await encoded.arrayBuffer());
      const type = encoded.headers.get('content-type') ?? '';
      return new Promise<{ status: number; connection: string | undefined }>((resolve) => {
        const req = httpRequest(
          { hostname, port, path, method: 'POST', agent, headers: { ...headers, 'content-type': type } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          },
        );
        req.setTimeout(timeoutMs, () => req.destroy());
        req.on('error', () => resolve({ status: 0, connection: undefined }));
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}
