/** The template last inspected, kept in memory while the user moves between the inspector and the playground. */
import type { InspectResult } from './inspect-types.js';

export interface InspectedTemplate {
  result: InspectResult;
  /** The uploaded file, sent again with each generation; null for a template given by URL. */
  file: File | null;
  /**
   * What `jsonData.presentation.template` names: the file name, the URL, or a stored template's name (its latest
   * version) or id (that version), which the server finds without an upload (docs/http-api.md "Stored templates").
   */
  templateName: string;
  /** A stored template of the account: generation sends no file, the server has it. */
  stored?: boolean;
}

let current: InspectedTemplate | null = null;

export function inspectedTemplate(): InspectedTemplate | null {
  return current;
}

export function keepInspectedTemplate(template: InspectedTemplate): void {
  current = template;
}
