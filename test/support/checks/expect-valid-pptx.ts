/**
 * The one check every test runs on every .pptx it writes (docs/powerpoint-rules.md
 * "How the tests check these rules"): package invariants and the Open XML SDK validator, each relative to the
 * template the output was made from.
 */
import { expect } from 'vitest';
import { checkPackageInvariantsAgainst } from './package-invariants.js';
import { formatValidatorResult, newValidatorErrors } from './validator.js';

/**
 * Problems of `output` that its template does not already have where the output has them (each part compared
 * with the template part it came from); empty when the output is sound. A deck made from several templates
 * lists them all, the one it is built on first.
 */
export async function newPptxProblems(
  output: Uint8Array,
  template: Uint8Array | readonly Uint8Array[],
): Promise<string[]> {
  const invariants = checkPackageInvariantsAgainst(output, template).map((v) => `invariant: ${v}`);
  // A package that does not reopen cannot be validated meaningfully; report the invariant alone.
  if (invariants.some((v) => v.startsWith('invariant: zip-unreadable'))) return invariants;
  const validator = (await newValidatorErrors(output, template)).map(
    (r) => `validator: ${formatValidatorResult(r)}`,
  );
  return [...invariants, ...validator];
}

/** Fails the calling test with a readable list when `output` has problems its template(s) do not. */
export async function expectValidPptx(
  output: Uint8Array,
  template: Uint8Array | readonly Uint8Array[],
): Promise<void> {
  const problems = await newPptxProblems(output, template);
  const list = problems.map((p) => `\n  - ${p}`).join('');
  expect(
    problems,
    `the .pptx has ${problems.length} problem(s) its template does not have:${list}\n`,
  ).toEqual([]);
}
