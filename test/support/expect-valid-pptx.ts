/**
 * The one check every test runs on every .pptx it writes (DESIGN.md "Tests"): package invariants and
 * the Open XML SDK validator, each relative to the template the output was made from.
 */
import { expect } from 'vitest';
import { checkPackageInvariantsAgainst } from './package-invariants.js';
import { formatValidatorResult, newValidatorErrors } from './validator.js';

/**
 * Problems of `output` that its template does not already have; empty when the output is sound. A deck made
 * from several templates may repeat a problem of any of them.
 */
export async function newPptxProblems(
  output: Uint8Array,
  template: Uint8Array | readonly Uint8Array[],
): Promise<string[]> {
  const templates = template instanceof Uint8Array ? [template] : template;
  const [first = [], ...others] = templates.map((t) =>
    checkPackageInvariantsAgainst(output, t).map((v) => `invariant: ${v}`),
  );
  const invariants = first.filter((problem) => others.every((list) => list.includes(problem)));
  // A package that does not reopen cannot be validated meaningfully; report the invariant alone.
  if (invariants.some((v) => v.startsWith('invariant: zip-unreadable'))) return invariants;
  const validator = (await newValidatorErrors(output, templates)).map(
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
