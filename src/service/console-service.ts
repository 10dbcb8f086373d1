/**
 * What the web console (src/console) may ask of Deckforge about accounts and sessions, beside the API's use cases
 * on DeckforgeService. Sessions are known by the cookie's random id, which only the HTTP layer ever sees in
 * clear; every call that reads or changes an account takes the ConsoleSession it acts for, so a cookie of one
 * account never reaches another's data. Throws the typed errors of errors.ts.
 */
/**
 * A signed-in account: the fields of deckforge-service.ts's Account (so it can be passed to the API's use cases
 * as it is; written out here because that file imports this one), and whether the address is confirmed.
 */
export interface ConsoleAccount {
  id: string;
  email: string;
  plan: string;
  subscriptionStart: string;
  hasSubscription: boolean;
  emailConfirmed: boolean;
}

/** A live session: anonymous (account null) or signed in. */
export interface ConsoleSession {
  /** SHA-256 of the cookie's id: how the service refers to the session (never the id itself). */
  idHash: string;
  /** What `X-CSRF-Token` must equal on this session's state-changing requests. */
  csrfToken: string;
  account: ConsoleAccount | null;
}

/** A session just made: `sessionId` goes into the cookie and is not kept anywhere. */
export interface NewConsoleSession {
  sessionId: string;
  session: ConsoleSession;
  /** The cookie's Max-Age: the session's absolute lifetime. */
  maxAgeSeconds: number;
}

export interface SignupStatus {
  open: boolean;
  /** Why it is closed: "sign-up is closed on this server" or "no mail server configured". */
  reason?: string;
}

/** Where the links in a mail point: DECKFORGE_PUBLIC_URL, else the request's own trusted origin. */
export interface MailOrigin {
  /** `https://decks.example.com`, no trailing slash; null when the request's Host is not trusted. */
  requestBase: string | null;
  clientAddress: string | null;
}

export type RotatedKey = { emailed: true } | { emailed: false; securityKey: string };

export interface ConsoleService {
  readonly mailConfigured: boolean;
  signupStatus(): SignupStatus;
  /** The session of a cookie's id, or null (unknown, expired, or its account gone or disabled). */
  session(sessionId: string | undefined): Promise<ConsoleSession | null>;
  /**
   * A new anonymous session (its CSRF token protects the sign-in and sign-up forms). TooManyRequestsError when
   * one client network opens more than SESSIONS_PER_NETWORK_PER_MINUTE (a flood of cookie-less requests would
   * otherwise fill the session table).
   */
  openSession(origin: { clientAddress: string | null }): Promise<NewConsoleSession>;
  /**
   * Checks the password (sign-in-guard.ts: slowed, then locked, per account and per address) and replaces
   * `current` with a new signed-in session. Throws InvalidCredentialsError (401), ForbiddenError (403: disabled,
   * or the address is not confirmed yet), TooManyRequestsError (429).
   */
  signIn(
    current: ConsoleSession | null,
    credentials: { email: string; password: string },
    origin: { clientAddress: string | null },
  ): Promise<NewConsoleSession>;
  signOut(session: ConsoleSession): Promise<void>;
  /** Always the same outcome whether the address is taken or not; ForbiddenError when sign-up is closed. */
  signUp(input: { email: string; password: string }, origin: MailOrigin): Promise<void>;
  confirmEmail(token: string): Promise<{ email: string }>;
  /** Ends the account's other sessions. */
  changePassword(
    session: ConsoleSession,
    input: { currentPassword: string; newPassword: string },
    origin: { clientAddress: string | null },
  ): Promise<void>;
  /** Sends a reset link when the account exists; the caller answers the same either way. */
  requestPasswordReset(email: string, origin: MailOrigin): Promise<void>;
  completePasswordReset(token: string, newPassword: string): Promise<void>;
  securityKey(session: ConsoleSession): Promise<{ exists: true; createdAt: string | null }>;
  /** New key (mailed, or returned once without a mail server); every token of the account is revoked. */
  rotateSecurityKey(session: ConsoleSession): Promise<RotatedKey>;
}
