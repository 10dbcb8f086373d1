/** The template last inspected, kept in memory while the user moves between the inspector and the playground. */
import type { InspectResult } from './inspect-types.js';

/** What the inspector draws under its boxes (slide-pictures.ts), and a one-line note saying so, or why not. */
export interface PictureOutcome {
  /** Slide index → the picture as a data: URL (the console's Content-Security-Policy allows `img-src data:`). */
  pictures: Map<number, string>;
  note: string;
}

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
  /** The slide pictures, asked for once (they are charged): kept so that coming back does not ask again. */
  pictures?: Promise<PictureOutcome>;
}

let current: InspectedTemplate | null = null;

export function inspectedTemplate(): InspectedTemplate | null {
  return current;
}

export function keepInspectedTemplate(template: InspectedTemplate): void {
  current = template;
}
