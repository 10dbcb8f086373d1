/**
 * The cell references of chart formulas (`c:f`, `cx:f`): A1 references with a sheet prefix, absolute
 * (`Sheet1!$B$2:$B$13`), a quoted sheet name where Excel needs one (`'My Sheet'!$A$1`, `''` for a quote inside),
 * non-ASCII names as they are (`Лист1!$A$1`), columns past Z as `AA`, `AB`… (docs/powerpoint-rules.md
 * "Chart XML order and series data"), and several areas in parentheses (`(Sheet1!$B$2:$B$3,Sheet1!$B$5:$B$7)`).
 * The sheet prefix is kept exactly as the template wrote it, so a rewritten formula names the same sheet the same
 * way.
 */

/** 1-based row and column. */
export interface Cell {
  row: number;
  col: number;
}

export interface Area {
  /** The sheet prefix as written, without the `!` (`Sheet1`, `'My Sheet'`, `'[1]Table 119'`). */
  sheet: string;
  from: Cell;
  to: Cell;
}

const REF = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;
/** Excel's grid: 16 384 columns, 1 048 576 rows. */
const MAX_COL = 16384;
const MAX_ROW = 1048576;

/** The areas a formula names, or null when it is not plain cell references (a defined name, a whole column…). */
export function parseFormula(formula: string): Area[] | null {
  let text = formula.trim();
  if (text.startsWith('=')) text = text.slice(1);
  if (text.startsWith('(') && text.endsWith(')')) text = text.slice(1, -1);
  const areas: Area[] = [];
  for (const part of splitAreas(text)) {
    const area = parseArea(part.trim());
    if (!area) return null;
    areas.push(area);
  }
  return areas.length > 0 ? areas : null;
}

/** Splits at commas outside quoted sheet names. */
function splitAreas(text: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'") quoted = !quoted;
    else if (ch === ',' && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseArea(text: string): Area | null {
  const bang = sheetEnd(text);
  if (bang < 0) return null;
  const sheet = text.slice(0, bang);
  const [first, second, extra] = text.slice(bang + 1).split(':');
  if (first === undefined || extra !== undefined || sheet === '') return null;
  const from = parseCell(first);
  const to = second === undefined ? from : parseCell(second);
  if (!from || !to) return null;
  return {
    sheet,
    from: { row: Math.min(from.row, to.row), col: Math.min(from.col, to.col) },
    to: { row: Math.max(from.row, to.row), col: Math.max(from.col, to.col) },
  };
}

/** Index of the `!` that ends the sheet prefix, honouring a quoted name (`'a!b'!A1`); -1 when there is none. */
function sheetEnd(text: string): number {
  if (!text.startsWith("'")) return text.indexOf('!');
  for (let i = 1; i < text.length; i++) {
    if (text[i] !== "'") continue;
    if (text[i + 1] === "'") {
      i++;
      continue;
    }
    return text[i + 1] === '!' ? i + 1 : -1;
  }
  return -1;
}

export function parseCell(text: string): Cell | null {
  const match = REF.exec(text);
  if (!match) return null;
  const col = columnNumber(match[1] as string);
  const row = Number(match[2]);
  return col >= 1 && col <= MAX_COL && row >= 1 && row <= MAX_ROW ? { row, col } : null;
}

/** `A` → 1, `Z` → 26, `AA` → 27. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** 1 → `A`, 27 → `AA`. */
export function columnName(col: number): string {
  let name = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** `B2`: the cell's address in a worksheet (`c/@r`). */
export function cellAddress(cell: Cell): string {
  return `${columnName(cell.col)}${cell.row}`;
}

function absolute(cell: Cell): string {
  return `$${columnName(cell.col)}$${cell.row}`;
}

/** `Sheet1!$B$2:$B$13`, or `Sheet1!$B$2` for one cell. */
export function formatArea(sheet: string, from: Cell, to: Cell = from): string {
  const range =
    from.row === to.row && from.col === to.col ? absolute(from) : `${absolute(from)}:${absolute(to)}`;
  return `${sheet}!${range}`;
}

/** The sheet's name without quotes (`'It''s'` → `It's`), as the workbook lists it. */
export function sheetName(prefix: string): string {
  return prefix.startsWith("'") && prefix.endsWith("'") ? prefix.slice(1, -1).replace(/''/g, "'") : prefix;
}

/**
 * Whether two sheet prefixes name the same sheet: one may be quoted and the other bare (`'Sheet1'` and `Sheet1`,
 * both in one chart from some producers), and Excel compares sheet names without regard to case.
 */
export function sameSheet(a: string, b: string): boolean {
  return a === b || sheetName(a).toLowerCase() === sheetName(b).toLowerCase();
}

/** A prefix naming another workbook (`[1]Sheet1`, `'C:\x\[book.xlsx]Sheet1'`): the data is not in ours. */
export function isExternalSheet(prefix: string): boolean {
  return /\[[^\]]*\]/.test(sheetName(prefix));
}

/** Every cell of an area, row by row. */
export function* cellsOf(area: Area): Generator<Cell> {
  for (let row = area.from.row; row <= area.to.row; row++)
    for (let col = area.from.col; col <= area.to.col; col++) yield { row, col };
}
