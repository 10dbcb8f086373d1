/**
 * Geometry units of `settings` (docs/payload.md): `pt` (default), `points`, `cm`, `mm`, `in`, `px` at 96 dpi,
 * `emu`; everything becomes an integer EMU, since DrawingML coordinates are integers and a fractional value
 * makes PowerPoint repair the file (docs/powerpoint-rules.md "Integer attributes").
 */
import { enumOf } from './schema-builders.js';

/** EMU per unit: 914 400 EMU to the inch, 72 pt and 96 px to the inch, 2.54 cm to the inch. */
export const EMU_PER_UNIT = {
  pt: 12_700,
  points: 12_700,
  cm: 360_000,
  mm: 36_000,
  in: 914_400,
  px: 9_525,
  emu: 1,
} as const;

export type LengthUnit = keyof typeof EMU_PER_UNIT;

export const unitSpec = enumOf<LengthUnit>({
  pt: 'pt',
  points: 'points',
  cm: 'cm',
  mm: 'mm',
  in: 'in',
  px: 'px',
  emu: 'emu',
});

/** ST_Coordinate's bound (ECMA-376 Part 1, 20.1.10.16): anything beyond cannot be written. */
export const MAX_COORDINATE_EMU = 27_273_042_316_900;

export function toEmu(value: number, unit: LengthUnit): number {
  return Math.round(value * EMU_PER_UNIT[unit]);
}
