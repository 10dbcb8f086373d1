/**
 * Which shape contents of a payload name a picture, or may name one (docs/payload-pictures.md): content of the
 * picture form, and a bare string, which is a picture's source only on a picture shape. Read before the deck
 * is built: the service fetches the URLs among them, the local MCP mode reads the files.
 */
import type { DeckRequest } from './model.js';

export interface PictureSourceUse {
  source: string;
  /** JSON path of the field that names it. */
  path: string;
  /**
   * True when the payload says it is a picture (`filename`, `fit`, or content of the picture form); false for
   * a bare string, which is a picture only if its shape turns out to be one.
   */
  explicit: boolean;
}

const HTTP_URL = /^https?:\/\//i;

export function isHttpUrl(source: string): boolean {
  return HTTP_URL.test(source);
}

/** Every shape content that names a picture or may name one, in payload order. */
export function pictureSourceUses(request: DeckRequest): PictureSourceUse[] {
  const uses: PictureSourceUse[] = [];
  for (const slide of request.slides) {
    for (const shape of slide.shapes) {
      const content = shape.content;
      const path = `${shape.path}.${shape.contentField}`;
      if (content?.kind === 'picture') uses.push({ source: content.source, path, explicit: true });
      else if (content?.kind === 'string' && content.value !== '')
        uses.push({ source: content.value, path, explicit: false });
    }
  }
  return uses;
}
