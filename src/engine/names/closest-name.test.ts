import { describe, expect, it } from 'vitest';
import { closestName, didYouMean, editDistance } from './closest-name.js';

describe('closestName', () => {
  it('finds the known name a misspelling stands for', () => {
    expect(closestName('tempalte', ['template', 'template_list', 'slides'])).toBe('template');
    expect(closestName('jsonDat', ['jsonData', 'files', 'format'])).toBe('jsonData');
    expect(closestName('slide_indx', ['slide_index', 'slide_id', 'shapes'])).toBe('slide_index');
    expect(closestName('slideIndex', ['slide_index', 'slide_id'])).toBe('slide_index');
  });

  it('gives nothing for a name unlike every known one, or for the name itself', () => {
    expect(closestName('colour', ['template', 'slides'])).toBeNull();
    expect(closestName('x', ['template'])).toBeNull();
    expect(closestName('template', ['template'])).toBeNull();
  });

  it('says it as a phrase', () => {
    expect(didYouMean('tempalte', ['template'])).toBe(' (did you mean "template"?)');
    expect(didYouMean('zzz', ['template'])).toBe('');
  });
});

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps', () => {
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('abc', 'abxc')).toBe(1);
    expect(editDistance('abc', 'ac')).toBe(1);
    expect(editDistance('abc', 'abd')).toBe(1);
    expect(editDistance('abc', 'acb')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
