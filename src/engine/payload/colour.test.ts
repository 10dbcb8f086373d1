import { describe, expect, it } from 'vitest';
import { CSS_COLOUR_NAMES } from './css-colour-names.js';
import { normaliseColour } from './colour.js';

describe('normaliseColour', () => {
  it('accepts every form of docs/payload.md and returns upper-case RRGGBB', () => {
    expect(normaliseColour('#1f4e79')).toBe('1F4E79');
    expect(normaliseColour('1F4E79')).toBe('1F4E79');
    expect(normaliseColour('RGB(31,78,121)')).toBe('1F4E79');
    expect(normaliseColour('rgb( 31 , 78 , 121 )')).toBe('1F4E79');
    expect(normaliseColour('31,78,121')).toBe('1F4E79');
    expect(normaliseColour('0, 0, 0')).toBe('000000');
    expect(normaliseColour(' White ')).toBe('FFFFFF');
    expect(normaliseColour('rebeccapurple')).toBe('663399');
    expect(normaliseColour('LightGoldenRodYellow')).toBe('FAFAD2');
  });

  it('knows all 148 CSS colour names, grey and gray alike', () => {
    expect(CSS_COLOUR_NAMES.size).toBe(148);
    expect(normaliseColour('darkslategrey')).toBe(normaliseColour('darkslategray'));
    for (const [name, hex] of CSS_COLOUR_NAMES) expect(normaliseColour(name)).toBe(hex);
  });

  it('refuses everything else', () => {
    for (const bad of [
      '#FFF',
      'FFFFF',
      '#GGGGGG',
      'RGB(256,0,0)',
      '1,2',
      '1,2,3,4',
      'rgba(1,2,3,0.5)',
      'transparent',
      '',
      'blurple',
    ]) {
      expect(normaliseColour(bad), bad).toBeNull();
    }
  });
});
