/** Paths the HTTP tests share: the repository root, the CLI, the template used throughout. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { layoutsTemplate, layoutsTemplatePath } from '../decks/layouts-template.js';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const CLI_PATH = join(REPO_ROOT, 'bin', 'deckforge.js');

/**
 * The project's own layouts.pptx (support/decks/layouts-template.ts): ten slides with plain placeholders. Slide 0 has
 * "Title 1" and "Subtitle 2"; slide 1 has "Title 1" and "Content Placeholder 2".
 */
export const TEMPLATE_PATH = layoutsTemplatePath();
export const TEMPLATE_NAME = 'layouts.pptx';
export const TEMPLATE_SLIDES = 10;

export function templateBytes(): Uint8Array {
  return layoutsTemplate();
}
