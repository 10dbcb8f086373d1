/**
 * The image preparation step, run before the engine's `generate` wherever it runs (a generation worker thread,
 * `deckforge generate`): every picture source of the request that needs decoding is converted once into what
 * the engine stores (engine/pictures/prepared-image.ts). PNG, JPEG and GIF that are upright need nothing and
 * are left to the engine, which reads their header itself; so are sources that are no image at all (a bare
 * string may be text: the engine refuses it only if its shape is a picture, with the shape's path).
 *
 * This sits outside the engine because decoding is native and asynchronous; it is shared by the worker and the
 * CLI rather than being a service port, because it runs where the engine runs (on the worker thread, off the
 * HTTP event loop) on bytes the service has already gathered. The decoding itself runs in a conversion process
 * (conversion-process.ts), where its time and memory limits can stop it; an SVG is cleaned and its filter work
 * bounded first (engine/pictures/svg-safety.ts), on this thread, before any renderer sees it.
 */
import {
  assessImage,
  pictureSourceUses,
  sourceBytes,
  sourceLabel,
  type DeckRequest,
  type ImageLimits,
  type ImageOutcome,
  makeSvgSafe,
} from '../engine/index.js';
import type { ConversionProcess } from './conversion-process.js';

export interface PrepareImagesOptions {
  limits: ImageLimits;
  /** Where images are converted. */
  converter: ConversionProcess;
  /** URLs that could not be fetched, with the reason: a picture using one is refused with that reason. */
  unavailable?: ReadonlyMap<string, string>;
}

export async function prepareImages(
  request: DeckRequest,
  files: ReadonlyMap<string, Uint8Array>,
  options: PrepareImagesOptions,
): Promise<Map<string, ImageOutcome>> {
  const outcomes = new Map<string, ImageOutcome>();
  const seen = new Set<string>();
  for (const { source } of pictureSourceUses(request)) {
    if (seen.has(source)) continue;
    seen.add(source);
    const failure = options.unavailable?.get(source);
    if (failure !== undefined) {
      outcomes.set(source, { refused: failure });
      continue;
    }
    const bytes = sourceBytes(source, files);
    if (!bytes) continue;
    const label = `picture ${sourceLabel(source)}`;
    const assessed = assessImage(bytes, label, options.limits);
    if (assessed.kind !== 'convert') continue;
    const request = { bytes, conversion: assessed, label, limits: options.limits };
    if (assessed.format !== 'svg') {
      outcomes.set(source, await options.converter.convert(request));
      continue;
    }
    const safe = makeSvgSafe(bytes, label, options.limits);
    if ('refused' in safe) {
      outcomes.set(source, safe);
      continue;
    }
    const outcome = await options.converter.convert({
      ...request,
      bytes: safe.svg,
      renditionLongSide: safe.renditionLongSide,
    });
    outcomes.set(source, 'refused' in outcome ? outcome : { ...outcome, warnings: safe.warnings });
  }
  return outcomes;
}
