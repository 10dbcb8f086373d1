/** FONT_SUBSTITUTED warnings: a font drawn with another says so, a font drawn with its metric twin does not. */
import { describe, expect, it } from 'vitest';
import { fontWarnings } from '../../src/service/generation/render-deck.js';

describe('font substitution warnings', () => {
  it('warn for a font drawn with another, not for Calibri, Cambria, Arial … drawn with their metric twins', () => {
    const substitutedFonts = [
      { requested: 'Calibri', used: 'Carlito' },
      { requested: 'Cambria', used: 'Caladea' },
      { requested: 'Arial', used: 'Liberation Sans' },
      { requested: 'Times New Roman', used: 'Liberation Serif' },
      { requested: 'Courier New', used: 'Liberation Mono' },
      { requested: 'Segoe UI', used: 'DejaVu Sans' },
      { requested: 'Calibri', used: 'DejaVu Sans' }, // Carlito not installed: Calibri drawn wider
    ];
    const warnings = fontWarnings({ substitutedFonts, fontWarnings: [] });
    expect(warnings.map((w) => [w.path, w.message.slice(0, w.message.indexOf(' instead'))])).toEqual([
      [
        'FONT_SUBSTITUTED',
        'the font "Segoe UI" is not installed on this server; the PDF and slide images use "DejaVu Sans"',
      ],
      [
        'FONT_SUBSTITUTED',
        'the font "Calibri" is not installed on this server; the PDF and slide images use "DejaVu Sans"',
      ],
    ]);
  });
});
