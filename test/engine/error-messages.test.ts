/**
 * Errors name the field and the file: a template that is not a .pptx names the payload field and the upload
 * it came from, a count of one slide reads "1 slide", and a malformed data: URI says what is wrong with it
 * instead of looking for an uploaded file of that name.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/engine/index.js';
import { engineErrorOf } from '../support/checks/engine-error.js';
import { editPart } from '../support/decks/package-edit.js';
import { SAMPLE } from '../support/decks/deck.js';

const NOTES = new TextEncoder().encode('These are my notes for the meeting, not a presentation.');

function refusal(presentation: Record<string, unknown>, files: Record<string, Uint8Array>) {
  return engineErrorOf(() => generate({ payload: { presentation }, files: new Map(Object.entries(files)) }));
}

describe('a template that is not a .pptx', () => {
  it('names presentation.template and the file', () => {
    const error = refusal({ template: 'notes.txt', slides: [{ slide_index: 0 }] }, { 'notes.txt': NOTES });
    expect([error.code, error.message]).toEqual([
      'INVALID_TEMPLATE',
      'presentation.template: template file "notes.txt": not a .pptx file (not a zip archive)',
    ]);
  });

  it('names the template_list entry and its file', () => {
    const error = refusal(
      {
        template_list: [
          { template_id: 'main', template: 'deck.pptx' },
          { template_id: 'extra', template: 'notes.txt' },
        ],
        slides: [
          { slide_index: 0, template_id: 'main' },
          { slide_index: 0, template_id: 'extra' },
        ],
      },
      { 'deck.pptx': SAMPLE, 'notes.txt': NOTES },
    );
    expect(error.message).toBe(
      'presentation.template_list[1]: template file "notes.txt": not a .pptx file (not a zip archive)',
    );
  });
});

it('a template of one slide says "1 slide"', () => {
  const oneSlide = editPart(SAMPLE, 'ppt/presentation.xml', (xml) =>
    xml.replace('<p:sldId id="257" r:id="rId11"/><p:sldId id="258" r:id="rId12"/>', ''),
  );
  const error = refusal({ template: 't.pptx', slides: [{ slide_index: 2 }] }, { 't.pptx': oneSlide });
  expect(error.message).toBe(
    'presentation.slides[0].slide_index: slide_index 2 is out of range: the template has 1 slide (0–0)',
  );
});

describe('a malformed data: URI', () => {
  const picture = (source: Record<string, unknown>) =>
    refusal(
      { template: 't.pptx', slides: [{ slide_index: 1, shapes: [{ name: 'Footnote', ...source }] }] },
      { 't.pptx': SAMPLE },
    );

  it('without a comma says so, for filename and for content with fit', () => {
    const message = 'the data: URI has no comma before its data (expected data:[<type>][;base64],<data>)';
    expect(picture({ filename: 'data:image/png;base64iVBORw0KGgo' }).message).toBe(
      `presentation.slides[0].shapes[0].filename: ${message}`,
    );
    expect(picture({ content: 'data:image/png;base64iVBORw0KGgo', fit: 'cover' }).message).toBe(
      `presentation.slides[0].shapes[0].content: ${message}`,
    );
  });

  it('with data that is not base64 names the character', () => {
    expect(picture({ filename: 'data:image/png;base64,iVBOR@@' }).message).toBe(
      'presentation.slides[0].shapes[0].filename: the data: URI is malformed: it says ;base64 but character 6 ' +
        'of its data, "@", is not base64 (expected data:[<type>][;base64],<data>)',
    );
  });
});
