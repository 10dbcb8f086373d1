/**
 * Appending a list that grows with the input. `target.push(...items)` passes every item as an argument on the
 * stack, and past some 100 000 of them (an accessibility report of 2 500 slides) throws a RangeError; a loop
 * has no such limit.
 */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
