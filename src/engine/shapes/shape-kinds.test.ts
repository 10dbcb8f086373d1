import { describe, expect, it } from 'vitest';
import type { ShapeContent } from '../payload/model.js';
import {
  fillerFor,
  mismatchMessage,
  SHAPE_KIND_NAMES,
  SHAPE_KINDS,
  type ContentForm,
} from './shape-kinds.js';

const FORMS: Record<ContentForm, ShapeContent> = {
  string: { kind: 'string', value: 'x' },
  text: { kind: 'text', fromRuns: true, paragraphs: [] },
  list: { kind: 'list', items: [] },
  picture: { kind: 'picture', source: 'a.png', fit: 'contain' },
  table: { kind: 'table', rows: [], overflow: 'warn', headerRows: null, unspecifiedCells: null },
  chart: { kind: 'chart', categories: [], series: [] },
};

describe('the table of shape kinds', () => {
  it('says what a kind takes exactly when some content fills it', () => {
    for (const kind of SHAPE_KIND_NAMES) {
      const fills = Object.values(FORMS).filter((content) => fillerFor(kind, content) !== null);
      // A group takes nothing but says where its content goes (a shape inside it).
      if (kind !== 'group') expect(SHAPE_KINDS[kind].takes !== null, kind).toBe(fills.length > 0);
    }
  });

  it('fills every content form on some kind', () => {
    for (const content of Object.values(FORMS))
      expect(
        SHAPE_KIND_NAMES.some((kind) => fillerFor(kind, content) !== null),
        content.kind,
      ).toBe(true);
  });

  it('routes a bare string to the picture filler on a picture and to text elsewhere', () => {
    expect(fillerFor('picture', FORMS.string)).toBe('picture');
    expect(fillerFor('text', FORMS.string)).toBe('text');
    expect(fillerFor('smartart', FORMS.string)).toBe('diagram');
    expect(fillerFor('text', FORMS.picture)).toBe('picture');
    expect(fillerFor('table', FORMS.string)).toBeNull();
  });

  it('names the shape, its kind, the content and what the kind takes in a refusal', () => {
    expect(mismatchMessage('table', 'Sales', FORMS.chart)).toBe(
      'shape "Sales" is a table but content is a chart; a table takes an array of rows',
    );
    expect(mismatchMessage('media', 'Clip', FORMS.string)).toBe(
      'shape "Clip" is a media object but content is text; it cannot be filled',
    );
  });
});
