/**
 * Font families made to the metrics of the Microsoft fonts templates use: every glyph the same width, so text
 * breaks where it breaks in PowerPoint. docs/previews.md ("Fonts") asks operators to install them; drawing Calibri
 * with Carlito is the intended result, not a substitution worth a warning.
 */
const TWINS: Readonly<Record<string, readonly string[]>> = {
  calibri: ['carlito'],
  cambria: ['caladea'],
  arial: ['liberation sans', 'arimo'],
  helvetica: ['liberation sans', 'arimo'],
  'arial narrow': ['liberation sans narrow'],
  'times new roman': ['liberation serif', 'tinos'],
  'courier new': ['liberation mono', 'cousine'],
};

/** True when `used` draws `requested` with the same metrics (Calibri drawn with Carlito). */
export function isMetricCompatible(requested: string, used: string): boolean {
  return TWINS[requested.trim().toLowerCase()]?.includes(used.trim().toLowerCase()) ?? false;
}
