/** The time source; injected so token expiry, periods and link validity are testable. */
export interface Clock {
  now(): Date;
}
