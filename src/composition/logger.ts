/**
 * The process logger (pino, JSON lines). Credentials never reach it: the service logs ids, never tokens, keys
 * or passwords, and these paths are redacted anyway in case a caller logs a request object.
 */
import { pino, type Logger, type DestinationStream } from 'pino';
import type { Config } from '../config/index.js';

export const REDACTED_PATHS = [
  'password',
  'key',
  'token',
  'accessToken',
  'authorization',
  '*.password',
  '*.key',
  '*.token',
  '*.accessToken',
  '*.authorization',
  'req.headers.authorization',
];

export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
