/**
 * Fresh part names for the output (`/ppt/slides/slide{n}.xml`), continuing from the last number handed out
 * for each pattern: a thousand-slide deck must not rescan every taken name for every new part.
 */
import type { PackageBuilder } from '../package/package-builder.js';

export class PartNamer {
  private readonly next = new Map<string, number>();

  constructor(private readonly builder: PackageBuilder) {}

  free(pattern: (n: number) => string): string {
    const key = pattern(0);
    let n = this.next.get(key) ?? 1;
    while (this.builder.has(pattern(n))) n++;
    this.next.set(key, n + 1);
    return pattern(n);
  }
}
