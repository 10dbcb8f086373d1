/** Redis failures (refused connection, timeout, closed connection) as the ports' StoreUnavailableError. */
import { StoreUnavailableError } from '../../service/ports/index.js';

export async function onRedis<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StoreUnavailableError) throw error;
    throw new StoreUnavailableError('Redis', error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
}
