import { describe, expect, it } from 'vitest';
import { arrangementOf, relaidOut, type Placement, type Point } from './node-arrangement.js';

const BOX = { cx: 1000000, cy: 600000 };

/** Boxes of BOX's size, placed. */
const boxesAt = (placements: readonly Placement[]) =>
  placements.map((p) => ({ x: p.x, y: p.y, cx: BOX.cx * p.sx, cy: BOX.cy * p.sy }));

/** Basic Block List with five nodes: three in the first row, two centred under them. */
const BLOCKS: Point[] = [
  { x: 0, y: 0 },
  { x: 1100000, y: 0 },
  { x: 2200000, y: 0 },
  { x: 550000, y: 700000 },
  { x: 1650000, y: 700000 },
];

describe('node arrangement', () => {
  it('reads a row, a column, a right-to-left row and a grid; not a triangle', () => {
    const row = [0, 1, 2].map((i) => ({ x: i * 1200000, y: 500 }));
    expect(arrangementOf(row, 10)).toMatchObject({ kind: 'line', axis: 'x', step: 1200000 });
    const column = [0, 1, 2].map((i) => ({ x: 0, y: i * 700000 + (i === 1 ? 3 : 0) }));
    expect(arrangementOf(column, 10)).toMatchObject({ kind: 'line', axis: 'y', step: 700000 });
    const rightToLeft = [...row].reverse();
    expect(arrangementOf(rightToLeft, 10)).toMatchObject({ kind: 'line', step: -1200000 });
    expect(arrangementOf(BLOCKS, 10)).toMatchObject({ kind: 'grid', columns: 3, centered: true });
    const triangle = [
      { x: 1000000, y: 0 },
      { x: 2000000, y: 1500000 },
      { x: 0, y: 1500000 },
    ];
    expect(arrangementOf(triangle, 10)).toBeNull();
  });

  it('lays a row of three out again as five in the same length, aspect kept, on the same middle line', () => {
    const row = arrangementOf(
      [0, 1, 2].map((i) => ({ x: i * 1400000, y: 1000000 })),
      10,
    )!;
    const boxes = boxesAt(relaidOut(row, BOX, 5, false));
    expect(boxes[0]!.x).toBe(0);
    expect(boxes[4]!.x + boxes[4]!.cx).toBeCloseTo(3800000, 3);
    for (const box of boxes) {
      expect(box.cx / box.cy).toBeCloseTo(BOX.cx / BOX.cy, 6);
      expect(box.y + box.cy / 2).toBeCloseTo(1300000, 3);
    }
    // Gaps shrink with the boxes: 400000 for 1000000 before.
    expect(boxes[1]!.x - (boxes[0]!.x + boxes[0]!.cx)).toBeCloseTo(0.4 * boxes[0]!.cx, 3);
  });

  it('keeps the far edge of a right-to-left row where it was', () => {
    const row = arrangementOf(
      [2, 1, 0].map((i) => ({ x: i * 1400000, y: 0 })),
      10,
    )!;
    const boxes = boxesAt(relaidOut(row, BOX, 4, false));
    expect(boxes[0]!.x + boxes[0]!.cx).toBeCloseTo(3800000, 3);
    expect(boxes[3]!.x).toBeCloseTo(0, 3);
  });

  it('keeps bars as wide as the frame that wide, shrinking only their height', () => {
    const column = arrangementOf(
      [0, 1, 2].map((i) => ({ x: 0, y: i * 700000 })),
      10,
    )!;
    const placements = relaidOut(column, BOX, 4, true);
    expect(placements.map((p) => [p.x, p.sx])).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
      [0, 1],
    ]);
    expect(placements[3]!.y + BOX.cy * placements[3]!.sy).toBeCloseTo(2000000, 3);
  });

  it('fills a grid of five with a sixth at full size, and fits seven as two rows of smaller boxes, the last row centred', () => {
    const grid = arrangementOf(BLOCKS, 10)!;
    const six = boxesAt(relaidOut(grid, BOX, 6, false));
    expect(six.map((b) => [b.x, b.y])).toEqual([
      [0, 0],
      [1100000, 0],
      [2200000, 0],
      [0, 700000],
      [1100000, 700000],
      [2200000, 700000],
    ]);
    const seven = boxesAt(relaidOut(grid, BOX, 7, false));
    const rows = [...new Set(seven.map((b) => Math.round(b.y)))];
    expect(rows).toHaveLength(2);
    for (const box of seven) {
      expect(box.x).toBeGreaterThanOrEqual(-1);
      expect(box.y).toBeGreaterThanOrEqual(-1);
      expect(box.x + box.cx).toBeLessThanOrEqual(3200001);
      expect(box.y + box.cy).toBeLessThanOrEqual(1300001);
    }
    // Four and three: the wider row gives larger boxes than three rows of three would; the three sit half a step in.
    expect(seven[0]!.cx).toBeCloseTo(BOX.cx * (3200000 / 4300000), 0);
    expect(seven[4]!.x).toBeCloseTo((seven[0]!.x + seven[1]!.x) / 2, 3);
  });
});
