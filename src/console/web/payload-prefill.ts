/**
 * The playground's starting `jsonData`: every template slide once, in order, with one entry per shape whose
 * content a payload gives back (shape-entry.ts), so that generating it unchanged gives the template back and
 * changing one value shows what that value does. Pictures have no entry: they keep the template's image. The
 * template is named by the uploaded file's name, which is how the multipart request sends it.
 */
import type { InspectResult } from './inspect-types.js';
import { contentEntry, isFillable, type ShapeEntry } from './shape-entry.js';

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
          const entry = contentEntry(shape);
          if (entry) shapes.push(entry);
        }
        return shapes.length > 0 ? { slide_index: slide.index, shapes } : { slide_index: slide.index };
      }),
    },
  };
}
