/**
 * The entry of an image conversion process (conversion-process.ts starts it): converts what it is sent, one
 * image at a time, and answers over the IPC channel. libvips runs here, not in the server: a conversion that
 * runs away is ended by killing this process, which takes its native threads and memory with it.
 */
import { convertImage, ImageConversionError } from './convert-image.js';
import type { ConversionReply, ConversionRequest } from './conversion-protocol.js';
import { loadSharp } from './load-sharp.js';

// One libvips thread: the machine's cores belong to the server's generation threads and its event loop.
loadSharp().concurrency(1);

// The thread that started this process is gone (terminated at its deadline, or the server exited). An exit()
// would wait on libvips' threads; a kill does not.
process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));

process.on('message', (request: ConversionRequest) => {
  process.send?.({ id: request.id, started: true } satisfies ConversionReply);
  void answer(request).then((reply) => process.send?.(reply));
});

async function answer(request: ConversionRequest): Promise<ConversionReply> {
  try {
    const { bytes, conversion, label, limits, renditionLongSide } = request;
    const image = await convertImage(bytes, conversion, label, limits, renditionLongSide);
    return { id: request.id, image };
  } catch (error) {
    if (error instanceof ImageConversionError) return { id: request.id, refused: error.message };
    return {
      id: request.id,
      failed: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
  }
}
