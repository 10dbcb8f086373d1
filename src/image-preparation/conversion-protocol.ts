/** Messages between a generation thread and its image conversion process (structured-cloneable data). */
import type { ImageAssessment, ImageLimits, PreparedImage } from '../engine/index.js';

export type Conversion = Extract<ImageAssessment, { kind: 'convert' }>;

export interface ConversionRequest {
  id: number;
  bytes: Uint8Array;
  conversion: Conversion;
  label: string;
  limits: ImageLimits;
  /** Long side of an SVG's PNG rendition (svg-safety chose it). */
  renditionLongSide?: number;
}

export type ConversionReply =
  /** Sent on receipt: the time limit runs from here, so a process still starting is not charged for it. */
  | { id: number; started: true }
  | { id: number; image: PreparedImage }
  /** The image cannot be converted: a sentence for the user. */
  | { id: number; refused: string }
  /** Anything else went wrong (a bug): the stack, for the log. */
  | { id: number; failed: string };
