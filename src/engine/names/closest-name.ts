/**
 * "Did you mean …?" for a misspelt key or field: the known name nearest to what was written, by edit distance
 * (insertions, deletions, substitutions and swaps of two neighbouring letters each count one), compared without
 * regard to case, `_` or `-`. A name only counts as near when few of its letters differ: a third of the longer
 * name, at least one.
 */

/** The known name closest to `written`, or null when none is near enough to be a likely misspelling. */
export function closestName(written: string, known: Iterable<string>): string | null {
  const plain = simplified(written);
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of known) {
    const candidate = simplified(name);
    const allowed = Math.max(1, Math.floor(Math.max(plain.length, candidate.length) / 3));
    if (Math.abs(candidate.length - plain.length) > allowed) continue;
    const distance = editDistance(plain, candidate);
    if (distance <= allowed && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return best === written ? null : best;
}

/**
 * Up to `count` known names nearest to `written` by the same distance, nearest first (ties in the given order):
 * what a caller offers in place of a name that does not exist, near enough or not.
 */
export function closestNames(written: string, known: Iterable<string>, count: number): string[] {
  const plain = simplified(written);
  return [...new Set(known)]
    .map((name, order) => ({ name, order, distance: editDistance(plain, simplified(name)) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .slice(0, count)
    .map((entry) => entry.name);
}

/** ` (did you mean "template"?)`, or '' when no known name is near. */
export function didYouMean(written: string, known: Iterable<string>): string {
  const closest = closestName(written, known);
  return closest === null ? '' : ` (did you mean "${closest}"?)`;
}

function simplified(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring characters. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  const at = (i: number, j: number): number => d[i * cols + j] as number;
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i * cols + j] = best;
    }
  }
  return at(a.length, b.length);
}
