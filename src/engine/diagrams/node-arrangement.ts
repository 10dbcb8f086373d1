/**
 * Where the boxes of a SmartArt graphic's top-level nodes go when nodes are added (docs/payload.md, SmartArt):
 * only a regular arrangement is understood — equal boxes evenly spaced in one row or one column, or a grid
 * filled row by row whose last row may be partial (PowerPoint's Basic Block List). The n + k boxes are laid out
 * again inside the extent the n boxes covered, boxes and gaps shrunk in the same proportion. Everything here is
 * EMU numbers (ECMA-376 Part 1 §20.1.2.3.10, a:off; §20.1.2.3.6, a:ext).
 */

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  cx: number;
  cy: number;
}

/** One row (axis x) or one column (axis y); `step` from one box's origin to the next, negative right to left. */
interface Line {
  kind: 'line';
  boxes: number;
  axis: 'x' | 'y';
  first: Point;
  step: number;
}

/** Rows of `columns` boxes; a partial last row is `centered` or starts at the left edge. */
interface Grid {
  kind: 'grid';
  boxes: number;
  first: Point;
  columns: number;
  step: Point;
  centered: boolean;
}

export type Arrangement = Line | Grid;

/** Where one box goes: its new origin, and the scale of what is drawn inside it along x and y. */
export interface Placement {
  x: number;
  y: number;
  sx: number;
  sy: number;
}

/**
 * The arrangement of boxes of one `size` at `origins` (in the text pane's order), or null when they are not in a
 * row, a column or a grid. `tolerance` absorbs PowerPoint's rounding.
 */
export function arrangementOf(origins: readonly Point[], tolerance: number): Arrangement | null {
  return lineOf(origins, 'x', tolerance) ?? lineOf(origins, 'y', tolerance) ?? gridOf(origins, tolerance);
}

function lineOf(origins: readonly Point[], axis: 'x' | 'y', tolerance: number): Line | null {
  const across = axis === 'x' ? 'y' : 'x';
  const first = origins[0];
  const last = origins[origins.length - 1];
  if (!first || !last || origins.length < 2) return null;
  const step = (last[axis] - first[axis]) / (origins.length - 1);
  if (Math.abs(step) <= tolerance) return null;
  const regular = origins.every(
    (o, i) =>
      Math.abs(o[across] - first[across]) <= tolerance &&
      Math.abs(o[axis] - first[axis] - i * step) <= tolerance,
  );
  return regular ? { kind: 'line', boxes: origins.length, axis, first, step } : null;
}

function gridOf(origins: readonly Point[], tolerance: number): Grid | null {
  const first = origins[0];
  if (!first) return null;
  const columns = origins.findIndex((o) => Math.abs(o.y - first.y) > tolerance);
  if (columns < 2) return null;
  const step = {
    x: ((origins[columns - 1]?.x ?? first.x) - first.x) / (columns - 1),
    y: (origins[columns]?.y ?? first.y) - first.y,
  };
  if (step.x <= tolerance || step.y <= tolerance) return null;
  const lastRow = Math.floor((origins.length - 1) / columns);
  const inLastRow = origins.length - lastRow * columns;
  const lastRowStart = origins[lastRow * columns]?.x ?? first.x;
  const centeredStart = first.x + ((columns - inLastRow) * step.x) / 2;
  // A full last row says nothing: Basic Block List centres a partial one.
  const centered = inLastRow === columns || Math.abs(lastRowStart - centeredStart) <= tolerance;
  if (!centered && Math.abs(lastRowStart - first.x) > tolerance) return null;
  const regular = origins.every((o, i) => {
    const row = Math.floor(i / columns);
    const rowStart = row === lastRow ? lastRowStart : first.x;
    return (
      Math.abs(o.y - first.y - row * step.y) <= tolerance &&
      Math.abs(o.x - rowStart - (i % columns) * step.x) <= tolerance
    );
  });
  return regular ? { kind: 'grid', boxes: origins.length, first, columns, step, centered } : null;
}

/**
 * Places `count` boxes where the arrangement's boxes of `size` were. A row or column stays one, inside the same
 * length; across it the boxes keep their size when they `fill` the frame that way (a list of bars), else they
 * keep their aspect, centred on the old line. A grid picks the number of columns that gives the largest boxes
 * inside the old grid's extent, aspect kept, centred; a partial last row as before.
 */
export function relaidOut(arrangement: Arrangement, size: Size, count: number, fills: boolean): Placement[] {
  return arrangement.kind === 'line'
    ? relaidLine(arrangement, size, count, fills)
    : relaidGrid(arrangement, size, count);
}

function relaidLine(line: Line, size: Size, count: number, fills: boolean): Placement[] {
  const along = line.axis === 'x' ? size.cx : size.cy;
  const across = line.axis === 'x' ? size.cy : size.cx;
  const gap = Math.abs(line.step) - along;
  // The length the old boxes covered: from the first box's near edge to the last box's far edge.
  const length = along + (line.boxes - 1) * Math.abs(line.step);
  const scale = Math.min(1, length / (count * along + (count - 1) * gap));
  const scaleAcross = fills ? 1 : scale;
  const step = line.step * scale;
  // Right to left (or bottom up) the first box keeps its far edge.
  const start = line.step > 0 ? line.first[line.axis] : line.first[line.axis] + along - along * scale;
  const acrossStart = line.first[line.axis === 'x' ? 'y' : 'x'] + (across - across * scaleAcross) / 2;
  return Array.from({ length: count }, (_, i) =>
    line.axis === 'x'
      ? { x: start + i * step, y: acrossStart, sx: scale, sy: scaleAcross }
      : { x: acrossStart, y: start + i * step, sx: scaleAcross, sy: scale },
  );
}

function relaidGrid(grid: Grid, size: Size, count: number): Placement[] {
  const gap = { x: grid.step.x - size.cx, y: grid.step.y - size.cy };
  const extent = {
    x: (grid.columns - 1) * grid.step.x + size.cx,
    y: Math.floor((grid.boxes - 1) / grid.columns) * grid.step.y + size.cy,
  };
  let best = { columns: grid.columns, scale: 0 };
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const scale = Math.min(
      1,
      extent.x / (columns * size.cx + (columns - 1) * gap.x),
      extent.y / (rows * size.cy + (rows - 1) * gap.y),
    );
    const better = scale > best.scale + 1e-9;
    const asBefore = Math.abs(scale - best.scale) <= 1e-9 && columns === grid.columns;
    if (better || asBefore) best = { columns, scale };
  }
  const { columns, scale } = best;
  const rows = Math.ceil(count / columns);
  const step = { x: grid.step.x * scale, y: grid.step.y * scale };
  const used = {
    x: (columns - 1) * step.x + size.cx * scale,
    y: (rows - 1) * step.y + size.cy * scale,
  };
  const origin = {
    x: grid.first.x + (extent.x - used.x) / 2,
    y: grid.first.y + (extent.y - used.y) / 2,
  };
  const inLastRow = count - (rows - 1) * columns;
  return Array.from({ length: count }, (_, i) => {
    const row = Math.floor(i / columns);
    const indent = row === rows - 1 && grid.centered ? ((columns - inLastRow) * step.x) / 2 : 0;
    return {
      x: origin.x + indent + (i % columns) * step.x,
      y: origin.y + row * step.y,
      sx: scale,
      sy: scale,
    };
  });
}
