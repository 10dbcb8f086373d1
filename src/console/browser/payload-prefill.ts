/**
 * The playground's starting `jsonData`: every template slide once, in order, with one entry per shape whose
 * content a payload gives back (shape-entry.ts), so that generating it unchanged gives the template back and
 * changing one value shows what that value does. The template's `{{tags}}` are listed in `tags`, each with a
 * value that writes it back as it stands, to be changed. Pictures have no entry: they keep the template's image. The
 * template is named as the inspected template was: the uploaded file's name (which is how the multipart request
 * sends it), its URL, or a stored template's name or id (docs/http-api.md "Stored templates").
 */
import type { InspectResult } from './inspect-types.js';
import { contentEntry, isFillable, type ShapeEntry } from './shape-entry.js';

/** A `shapes[]` entry: by name, or by `shapeId` where the slide has several shapes of that name. */
export type PrefilledEntry = Omit<ShapeEntry, 'name'> & ({ name: string } | { shapeId: number });

export interface PrefilledPayload {
  presentation: {
    template: string;
    /** The template's `{{tags}}`, each written back as it stands (`"{{name}}"`): there to be given values. */
    tags?: { key: string; value: string }[];
    slides: { slide_index: number; shapes?: PrefilledEntry[] }[];
  };
}

export function prefillPayload(result: InspectResult, templateName: string): PrefilledPayload {
  const keys = [...new Set(result.slides.flatMap((slide) => slide.shapes.flatMap((shape) => shape.tags)))];
  return {
    presentation: {
      template: templateName,
      ...(keys.length > 0 ? { tags: keys.map((key) => ({ key, value: `{{${key}}}` })) } : {}),
      slides: result.slides.map((slide) => {
        const uses = new Map<string, number>();
        for (const shape of slide.shapes) uses.set(shape.name, (uses.get(shape.name) ?? 0) + 1);
        const shapes: PrefilledEntry[] = [];
        for (const shape of slide.shapes) {
          const entry = isFillable(shape) ? contentEntry(shape) : null;
          if (!entry) continue;
          // A name several shapes share reaches only the first of them (docs/payload.md, Shapes): the id
          // reaches each one.
          const { name, ...rest } = entry;
          shapes.push((uses.get(name) ?? 0) > 1 ? { shapeId: shape.id, ...rest } : entry);
        }
        return shapes.length > 0 ? { slide_index: slide.index, shapes } : { slide_index: slide.index };
      }),
    },
  };
}
