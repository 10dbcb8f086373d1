/**
 * Embedded workbooks for the owned chart templates, written with ExcelJS (a writer independent of the engine),
 * so a chart's caches and the cells its formulas name hold the same values.
 */
import ExcelJS from 'exceljs';

/** A cell's value; a Date is written as Excel writes a date (its serial, formatted m/d/yy). */
export type Cell = string | number | Date | null;

export interface WorkbookOptions {
  /** An Excel table ("Table1") over rows and columns from A1 of the data, its header row the first row. */
  table?: { rows: number; columns: number };
  /** Further cells of Sheet1 outside the data, by A1 reference. */
  notes?: Record<string, string>;
}

/** An .xlsx whose `Sheet1` holds `sheet` by rows from A1. */
export async function chartWorkbook(
  sheet: readonly Cell[][],
  options: WorkbookOptions = {},
): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  // Fixed dates keep the bytes the same on every run.
  book.created = book.modified = new Date('2020-01-01T00:00:00Z');
  book.creator = 'Deckforge tests';
  const ws = book.addWorksheet('Sheet1');
  const { table } = options;
  if (table) {
    const header = sheet[0] ?? [];
    ws.addTable({
      name: 'Table1',
      displayName: 'Table1',
      ref: 'A1',
      headerRow: true,
      style: { theme: 'TableStyleMedium2', showRowStripes: true },
      columns: Array.from({ length: table.columns }, (_, c) => ({ name: String(header[c] ?? ' ') })),
      rows: sheet
        .slice(1, table.rows)
        .map((row) => Array.from({ length: table.columns }, (_, c) => row[c] ?? null)),
    });
  }
  sheet.forEach((row, r) =>
    row.forEach((value, c) => {
      if (table && r < table.rows && c < table.columns) return;
      if (value === null) return;
      const cell = ws.getCell(r + 1, c + 1);
      cell.value = value;
      if (value instanceof Date) cell.numFmt = 'm/d/yy';
    }),
  );
  for (const [ref, text] of Object.entries(options.notes ?? {})) ws.getCell(ref).value = text;
  return new Uint8Array(await book.xlsx.writeBuffer());
}
