/** What a page may ask of the shell: move to another page, re-read the session after signing in or out. */
export interface PageContext {
  navigate(path: string): void;
  refreshSession(): Promise<void>;
}
