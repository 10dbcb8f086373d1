/** FONT_SUBSTITUTED warnings: a font drawn with another says so, a font drawn with its metric twin does not. */
import { describe, expect, it } from 'vitest';
import { fontWarnings } from '../../../src/service/generation/render-deck.js';

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
    const warnings = fontWarnings({ substitutedFonts, otherMissingFonts: [], fontWarnings: [] });
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

  it('say in one warning how many more fonts are missing past the 20 looked up, naming five', () => {
    const otherMissingFonts = Array.from({ length: 280 }, (_, i) => `Missing ${i + 20}`);
    expect(fontWarnings({ substitutedFonts: [], otherMissingFonts, fontWarnings: [] })).toEqual([
      {
        path: 'FONT_SUBSTITUTED',
        message:
          '280 more fonts are not installed on this server ("Missing 20", "Missing 21", "Missing 22", "Missing 23", ' +
          '"Missing 24", 275 more); the PDF and slide images draw them with other fonts. A deck\'s stand-ins are ' +
          'looked up for 20 missing fonts at most: use fewer fonts (see /docs/previews#fonts)',
      },
    ]);
  });
});
