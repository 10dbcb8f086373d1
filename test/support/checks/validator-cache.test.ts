import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { layoutsTemplate } from '../decks/layouts-template.js';
import { editPart } from '../decks/package-edit.js';
import { readCachedResults, writeCachedResults } from './validator-cache.js';
import { errorsOfTemplate, validatePptx, type ValidatorResult } from './validator.js';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A template no other test uses: the owned layouts deck with one more word on its first slide. */
function freshTemplate(): Uint8Array {
  const marker = `cache-test-${process.pid}-${Date.now()}`;
  return editPart(layoutsTemplate(), 'ppt/presentation.xml', (xml) =>
    xml.replace('<p:sldIdLst', `<!--${marker}--><p:sldIdLst`),
  );
}

describe('validator results kept on disk', () => {
  it('stores a template’s results when it is validated and answers from the store afterwards', async () => {
    const template = freshTemplate();
    const sha = sha256(template);
    expect(readCachedResults(sha)).toBeUndefined();
    const results = await errorsOfTemplate(template);
    expect(readCachedResults<ValidatorResult>(sha)).toEqual(results);
    expect(results).toEqual(await validatePptx(template));
  });

  it('takes a template’s errors from the store rather than validating again', async () => {
    const template = freshTemplate();
    const stored: ValidatorResult[] = [
      {
        id: 'Sch_StoredOnly',
        description: 'only in the store',
        path: { xpath: '/p:sld[1]', partUri: '/ppt/slides/slide1.xml' },
      },
    ];
    writeCachedResults(sha256(template), stored);
    expect(await errorsOfTemplate(template)).toEqual(stored);
  });
});
