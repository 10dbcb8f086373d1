/** A plain zip's files (the slide images a render answers with), read within the package limits against zip bombs. */
import { DEFAULT_LIMITS, type PackageLimits } from './limits.js';
import { readZip } from './zip-reader.js';

export function readZipEntries(
  bytes: Uint8Array,
  limits: PackageLimits = DEFAULT_LIMITS,
): { name: string; bytes: Uint8Array }[] {
  const archive = readZip(bytes, limits);
  return [...archive.entries.keys()].map((name) => ({ name, bytes: archive.inflate(name) }));
}
