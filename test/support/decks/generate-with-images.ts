/**
 * What the worker thread does with a request that carries pictures, in the test's own process: the image
 * preparation step (conversions in the given child process), then the engine, on one parse of the payload.
 */
import {
  DEFAULT_IMAGE_LIMITS,
  generate,
  parsePayload,
  type GenerateResult,
  type ImageLimits,
} from '../../../src/engine/index.js';
import type { ConversionProcess } from '../../../src/image-preparation/conversion-process.js';
import { prepareImages } from '../../../src/image-preparation/prepare-images.js';

export async function generateWithImages(
  payload: unknown,
  files: Map<string, Uint8Array>,
  options: { converter: ConversionProcess; limits?: ImageLimits; unavailable?: Map<string, string> },
): Promise<GenerateResult> {
  const limits = options.limits ?? DEFAULT_IMAGE_LIMITS;
  const parsed = parsePayload(payload);
  const images = await prepareImages(parsed.request, files, {
    limits,
    converter: options.converter,
    ...(options.unavailable ? { unavailable: options.unavailable } : {}),
  });
  return generate({ parsed, files, images, imageLimits: limits });
}
