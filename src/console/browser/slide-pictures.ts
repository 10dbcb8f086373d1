/**
 * The inspector's slide pictures (docs/console.md, "The pages"): when the server can draw them (LibreOffice), a
 * PNG of each visible slide, drawn when the user asks (they are charged as `POST /v1.0/render` is), once per
 * inspected template, through `POST /console/api/slide-pictures`. Whatever happens, a one-line note says what
 * the drawings show: pictures under the boxes, or the boxes alone and why.
 */
import { getJson, sendForm, sendJson } from './console-api.js';
import { describeError } from './form-handling.js';
import type { InspectedTemplate, PictureOutcome } from './template-state.js';

export interface PreviewsStatus {
  available: boolean;
  reason?: string;
}

interface SlidePicturesAnswer {
  width: number;
  slides: { index: number; png: string }[];
  warnings: { path: string; message: string }[];
}

export function previewsStatus(): Promise<PreviewsStatus> {
  return getJson<PreviewsStatus>('/console/api/previews');
}

/**
 * Whether this server can draw slide pictures: `null` when it can, else the note that says why the boxes stand
 * alone. Asking is free; drawing them is charged, so the inspector draws them only when asked to.
 */
export async function whyBoxesAlone(): Promise<string | null> {
  let status: PreviewsStatus;
  try {
    status = await previewsStatus();
  } catch (error) {
    return boxesAlone(`the server did not say whether it can draw them (${describeError(error)})`).note;
  }
  return status.available
    ? null
    : boxesAlone(`this server cannot draw slide pictures (${status.reason ?? 'no LibreOffice'})`).note;
}

export async function loadSlidePictures(template: InspectedTemplate): Promise<PictureOutcome> {
  let answer: SlidePicturesAnswer;
  try {
    answer = await requestPictures(template);
  } catch (error) {
    return boxesAlone(`the slide pictures could not be drawn (${describeError(error)})`);
  }
  const pictures = new Map(answer.slides.map(({ index, png }) => [index, `data:image/png;base64,${png}`]));
  const count = `${pictures.size} slide picture${pictures.size === 1 ? '' : 's'}`;
  const fonts = answer.warnings.some((w) => w.path === 'FONT_SUBSTITUTED')
    ? ' Some fonts were drawn with others, so text may sit differently than in PowerPoint.'
    : '';
  return {
    pictures,
    note: `Under the boxes: ${count} drawn by LibreOffice, counted against the allowance as a render is.${fonts}`,
  };
}

function requestPictures(template: InspectedTemplate): Promise<SlidePicturesAnswer> {
  if (template.file === null)
    return sendJson<SlidePicturesAnswer>('POST', '/console/api/slide-pictures', {
      url: template.templateName,
    });
  const body = new FormData();
  body.append('template', template.file, template.file.name);
  return sendForm<SlidePicturesAnswer>('/console/api/slide-pictures', body);
}

function boxesAlone(why: string): PictureOutcome {
  return { pictures: new Map(), note: `Boxes alone: ${why}.` };
}
