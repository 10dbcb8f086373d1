/** "1 slide", "2 slides": every message that prints a count of slides says it this way. */
export function slideCountText(count: number): string {
  return `${count} ${count === 1 ? 'slide' : 'slides'}`;
}
