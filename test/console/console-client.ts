/**
 * A console visitor for tests: a cookie jar of one cookie (the console's) and the CSRF token, over real HTTP
 * with fetch, as a browser would send them.
 */
export interface ConsoleAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export class ConsoleVisitor {
  cookie: string | null = null;
  csrfToken: string | null = null;
  /** The last Set-Cookie header the server sent. */
  lastSetCookie: string | null = null;

  constructor(readonly base: string) {}

  /** GET /console/api/session: opens the session when there is none and keeps its CSRF token. */
  async open(): Promise<Record<string, unknown>> {
    const answer = await this.get('/console/api/session');
    if (answer.status !== 200) throw new Error(`session answered ${answer.status}`);
    const body = answer.body as Record<string, unknown>;
    this.csrfToken = body.csrfToken as string;
    return body;
  }

  get(path: string): Promise<ConsoleAnswer> {
    return this.send('GET', path);
  }

  /** JSON POST with the cookie and (unless `csrf` says otherwise) the session's CSRF token. */
  post(
    path: string,
    body?: unknown,
    options: { csrf?: string | null; method?: string } = {},
  ): Promise<ConsoleAnswer> {
    return this.send(options.method ?? 'POST', path, body, options.csrf);
  }

  async signIn(email: string, password: string): Promise<ConsoleAnswer> {
    if (this.csrfToken === null) await this.open();
    return this.post('/console/api/sign-in', { email, password });
  }

  private async send(
    method: string,
    path: string,
    body?: unknown,
    csrf?: string | null,
  ): Promise<ConsoleAnswer> {
    const headers: Record<string, string> = {};
    if (this.cookie !== null) headers.cookie = `deckforge_console=${this.cookie}`;
    const token = csrf === undefined ? this.csrfToken : csrf;
    if (method !== 'GET' && token !== null) headers['x-csrf-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie !== null) {
      this.lastSetCookie = setCookie;
      const value = /^deckforge_console=([^;]*)/.exec(setCookie)?.[1] ?? '';
      this.cookie = value === '' ? null : value;
    }
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? null : JSON.parse(text),
    };
  }
}
