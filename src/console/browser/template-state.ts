/** The template last inspected, kept in memory while the user moves between the inspector and the playground. */
import type { InspectResult } from './inspect-types.js';

export interface InspectedTemplate {
  result: InspectResult;
  /** The uploaded file, sent again with each generation; null for a template given by URL. */
  file: File | null;
  /** The file name (or the URL) that `jsonData.presentation.template` names. */
  templateName: string;
}

let current: InspectedTemplate | null = null;

export function inspectedTemplate(): InspectedTemplate | null {
  return current;
}

export function keepInspectedTemplate(template: InspectedTemplate): void {
  current = template;
}
