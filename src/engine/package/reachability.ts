/**
 * Which parts a package still needs: those reachable from the package relationships (/_rels/.rels) by
 * following internal relationships. Never by scanning XML for r:id — implicit relationships (slide→layout,
 * slide→notesSlide, chart→style/colors) are named by no attribute and still matter (docs/powerpoint-rules.md
 * "Relationships no attribute names").
 */
import { partKey } from './part-names.js';
import { resolveTarget, type Relationship } from './relationships.js';

/**
 * Returns the keys (see partKey) of the parts reachable from '/'. `exists` maps a part key to the part's
 * name when the package has that part; targets that are not parts are not followed.
 */
export function reachableParts(
  relationshipsOf: (partName: string) => readonly Relationship[],
  exists: (key: string) => string | undefined,
): Set<string> {
  const reached = new Set<string>();
  // A thousand cloned slides share a folder and their layout/notes-master targets: resolve each pair once.
  const resolved = new Map<string, string>();
  const queue: string[] = ['/'];
  for (let i = 0; i < queue.length; i++) {
    const source = queue[i]!;
    const folder = source.slice(0, source.lastIndexOf('/') + 1);
    for (const rel of relationshipsOf(source)) {
      if (rel.external) continue;
      const pair = `${folder}\0${rel.target}`;
      let key = resolved.get(pair);
      if (key === undefined) {
        key = partKey(resolveTarget(source, rel.target));
        resolved.set(pair, key);
      }
      if (reached.has(key)) continue;
      const name = exists(key);
      if (name === undefined) continue;
      reached.add(key);
      queue.push(name);
    }
  }
  return reached;
}
