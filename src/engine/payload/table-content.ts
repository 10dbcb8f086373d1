/**
 * Table content (docs/payload-tables.md): `content` or `data_cells`, an array of rows, a row an array of cells;
 * a cell is a string, a number, `null` (the template's cell is left as it is) or `{text, cell_properties}`,
 * `text` also spelt `text_runs` or `text_content` by older clients.
 */
import type { TableCell, TableContent } from './model.js';
import { colourSpec } from './colour.js';
import { object } from './object-builder.js';
import {
  arrayOf,
  byJsonType,
  custom,
  enumOf,
  named,
  transform,
  string,
  type Spec,
} from './schema-builders.js';
import { numberAsText, plainTextContent, textSpec, typedTextSpec } from './text-content.js';
import { isTypedValue, TYPED_VALUE_EXPECTED, typedValueSpec } from './typed-value.js';
import { splitTextProperties, textPropertyFields } from './text-properties.js';

const VERTICAL_ALIGN: Record<string, NonNullable<TableCell['verticalAlign']>> = {
  top: 't',
  middle: 'ctr',
  bottom: 'b',
};

const cellPropertiesSpec = named(
  'CellProperties',
  object(
    'a cell_properties object',
    { ...textPropertyFields, fill_color: colourSpec, vertical_align: enumOf(VERTICAL_ALIGN) },
    (f) => {
      const split = splitTextProperties(f);
      const cell: Omit<TableCell, 'text'> = {};
      if (f.fill_color !== undefined) cell.fillColor = f.fill_color;
      if (f.vertical_align !== undefined) cell.verticalAlign = f.vertical_align;
      if (hasKeys(split.run)) cell.runProps = split.run;
      if (split.paragraph !== null) cell.paragraphProps = split.paragraph;
      return cell;
    },
  ),
  'Formatting applied to the whole cell: fill_color, vertical_align and any text_properties key.',
);

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

const cellFieldsSpec: Spec<TableCell> = object(
  'a cell object {text, cell_properties}',
  { text: textSpec, text_runs: textSpec, text_content: textSpec, cell_properties: cellPropertiesSpec },
  (f) => {
    const cell: TableCell = { text: f.text ?? f.text_runs ?? f.text_content ?? null };
    return f.cell_properties === undefined ? cell : Object.assign(cell, f.cell_properties);
  },
  { exclusive: [['text', 'text_runs', 'text_content']] },
);

/** A cell object: a typed value when it has `number` or `date`, else `{text, cell_properties}`. */
const cellObjectSpec: Spec<TableCell> = {
  expected: `a cell object {text, cell_properties} or ${TYPED_VALUE_EXPECTED}`,
  parse: (value, ctx) =>
    isTypedValue(value) ? { text: typedTextSpec.parse(value, ctx) } : cellFieldsSpec.parse(value, ctx),
  toJsonSchema: (defs) => ({ anyOf: [cellFieldsSpec.toJsonSchema(defs), typedValueSpec.toJsonSchema(defs)] }),
};

const CELL_EXPECTED =
  'a cell (a string, a number, null, an object {text, cell_properties} or a typed value {number|date, format})';

const keepCell = custom<TableCell>('null', { type: 'null' }, () => ({ text: null }));

const cellSpec: Spec<TableCell> = named(
  'TableCell',
  byJsonType<TableCell>(CELL_EXPECTED, {
    string: transform(string(), (s) => ({ text: plainTextContent(s) })),
    number: transform(numberAsText, (s) => ({ text: plainTextContent(s) })),
    null: keepCell,
    object: cellObjectSpec,
  }),
);

const rowSpec = arrayOf(cellSpec, { expected: 'a row (an array of cells)' });

export const TABLE_ROWS_EXPECTED = 'a non-empty array of table rows (arrays of cells)';

/**
 * Rows one table takes. It bounds the work of one request (10 000 rows of a 6-column table continue on
 * ~400 slides in well under a few seconds); larger data belongs in several tables or requests.
 */
export const MAX_TABLE_ROWS = 10_000;

export const tableRowsSpec: Spec<TableContent> = transform(
  arrayOf(rowSpec, {
    minItems: 1,
    maxItems: MAX_TABLE_ROWS,
    expected: TABLE_ROWS_EXPECTED,
    tooMany: (count) =>
      `${count} rows is more than a table takes (at most ${MAX_TABLE_ROWS}); split the data over several tables or requests`,
  }),
  (rows) => ({ kind: 'table', rows, overflow: 'warn', headerRows: null, unspecifiedCells: null }),
);
