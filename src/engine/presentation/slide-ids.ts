/**
 * Slide ids (ST_SlideId): unique, 256 <= id < 2^31 (docs/powerpoint-rules.md "Slide, master and layout ids"). New
 * ids are max+1; when that would reach 2^31 (some producers allocate downward from the top) the lowest free id >=
 * 256 is used.
 */
const MIN_SLIDE_ID = 256;
const MAX_SLIDE_ID = 2 ** 31 - 1;

export class SlideIdAllocator {
  private readonly taken = new Set<number>();
  private next = MIN_SLIDE_ID;
  private lowestCandidate = MIN_SLIDE_ID;

  /** Keeps a template slide's own id when it is valid and still free; returns the id to use. */
  keepOrAllocate(id: number): number {
    if (Number.isInteger(id) && id >= MIN_SLIDE_ID && id <= MAX_SLIDE_ID && !this.taken.has(id)) {
      this.take(id);
      return id;
    }
    return this.allocate();
  }

  /** Reserves ids that must not be handed out (template slides that will keep theirs). */
  reserve(ids: Iterable<number>): void {
    for (const id of ids) if (id >= MIN_SLIDE_ID && id <= MAX_SLIDE_ID) this.take(id);
  }

  release(id: number): void {
    this.taken.delete(id);
    if (id < this.lowestCandidate) this.lowestCandidate = id;
  }

  allocate(): number {
    if (this.next <= MAX_SLIDE_ID && !this.taken.has(this.next)) {
      const id = this.next;
      this.take(id);
      return id;
    }
    while (this.taken.has(this.lowestCandidate)) this.lowestCandidate++;
    if (this.lowestCandidate > MAX_SLIDE_ID) throw new RangeError('no free slide id left');
    const id = this.lowestCandidate;
    this.take(id);
    return id;
  }

  private take(id: number): void {
    this.taken.add(id);
    if (id >= this.next) this.next = id + 1;
  }
}
