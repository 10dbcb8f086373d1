import { describe, expect, it } from 'vitest';
import { itCorpus, readCorpus } from '../corpus/corpus.js';
import { RenderError, renderToPdfText } from './render.js';

describe('renderToPdfText', () => {
  itCorpus(
    'renders every slide of a deck to the text of one PDF page each',
    async () => {
      const pages = await renderToPdfText(readCorpus('python-pptx/txt-font-props.pptx'));
      expect(pages).toHaveLength(5);
      expect(pages[0]).toContain('Italic = True');
    },
    130_000,
  );

  it('throws a RenderError when LibreOffice produces no PDF', async () => {
    await expect(renderToPdfText(new TextEncoder().encode('not a presentation'))).rejects.toBeInstanceOf(
      RenderError,
    );
  }, 130_000);
});
