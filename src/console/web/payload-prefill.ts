/**
 * The playground's starting `jsonData`: every template slide once, in order, with one entry per fillable shape
 * (shape-entry.ts). The template is named by the uploaded file's name, which is how the multipart request sends it.
 */
import type { InspectResult } from './inspect-types.js';
import { isFillable, shapeEntry, type ShapeEntry } from './shape-entry.js';

export interface PrefilledPayload {
  presentation: {
    template: string;
    slides: { slide_index: number; shapes?: ShapeEntry[] }[];
  };
}

export function prefillPayload(result: InspectResult, templateName: string): PrefilledPayload {
  return {
    presentation: {
      template: templateName,
      slides: result.slides.map((slide) => {
        const seen = new Set<string>();
        const shapes: ShapeEntry[] = [];
        for (const shape of slide.shapes) {
          // A name used twice addresses the first shape only (docs/payload.md): one entry per name.
          if (!isFillable(shape) || seen.has(shape.name)) continue;
          seen.add(shape.name);
          shapes.push(shapeEntry(shape));
        }
        return shapes.length > 0 ? { slide_index: slide.index, shapes } : { slide_index: slide.index };
      }),
    },
  };
}
