/**
 * A console visitor for tests: a cookie jar of one cookie (the console's session cookie, `deckforge_console` over
 * http or `__Host-deckforge_console` over https) and the CSRF token, over real HTTP with fetch, as a browser would
 * send them.
 */
export interface ConsoleAnswer {
  status: number;
  headers: Headers;
  body: unknown;
}

export class ConsoleVisitor {
  cookie: string | null = null;
  /** The name the server gave the session cookie. */
  cookieName = 'deckforge_console';
  csrfToken: string | null = null;
  /** The first Set-Cookie line of the last answer that sent any (the session cookie of the request's scheme). */
  lastSetCookie: string | null = null;
  /** Every Set-Cookie line of that answer. */
  lastSetCookies: string[] = [];

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
    if (this.cookie !== null) headers.cookie = `${this.cookieName}=${this.cookie}`;
    const token = csrf === undefined ? this.csrfToken : csrf;
    if (method !== 'GET' && token !== null) headers['x-csrf-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const setCookies = response.headers.getSetCookie();
    const setCookie = setCookies[0];
    if (setCookie !== undefined) {
      this.lastSetCookie = setCookie;
      this.lastSetCookies = setCookies;
      const [, name, value] = /^((?:__Host-)?deckforge_console)=([^;]*)/.exec(setCookie) ?? [];
      if (name !== undefined) this.cookieName = name;
      this.cookie = value === undefined || value === '' ? null : value;
    }
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === '' ? null : JSON.parse(text),
    };
  }
}
