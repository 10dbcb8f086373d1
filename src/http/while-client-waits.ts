/**
 * Work done for a client that waits for its answer (synchronous generation, render): the connection closing
 * before the answer is sent means nobody will read it, so the work gets a signal that aborts then. Timed for the
 * Server-Timing header and the metrics.
 */
import type { FastifyReply } from 'fastify';

export async function whileClientWaits<T>(
  reply: FastifyReply,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<{ result: T; milliseconds: number }> {
  const gone = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableEnded) gone.abort();
  };
  reply.raw.once('close', onClose);
  const started = process.hrtime.bigint();
  try {
    const result = await work(gone.signal);
    return { result, milliseconds: Number(process.hrtime.bigint() - started) / 1e6 };
  } finally {
    reply.raw.off('close', onClose);
  }
}
