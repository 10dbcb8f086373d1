import { EngineError } from '../engine/errors.js';

/** Where a command writes: the process's streams in production, strings in tests. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether a person watches: standard output and standard error are both terminals (progress lines). */
  terminal?: boolean;
}

export const processIo: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  terminal: Boolean(process.stdout.isTTY && process.stderr.isTTY),
};

/**
 * The exit code for what went wrong in an offline command: 1 with a one-line message for a template or
 * payload problem (EngineError) or a missing file; anything else is a bug and is rethrown.
 */
export function reportUserError(error: unknown, io: CommandIo): number {
  if (error instanceof EngineError) {
    io.stderr(`error: ${error.message}\n`);
    return 1;
  }
  const errno = error as NodeJS.ErrnoException;
  if (errno.code === 'ENOENT') {
    io.stderr(`error: no such file: ${errno.path}\n`);
    return 1;
  }
  throw error;
}
