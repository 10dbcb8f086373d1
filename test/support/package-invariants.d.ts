export interface Violation {
    kind: string;
    part: string;
    message: string;
}
/** Every invariant violation of a package, structured. */
export declare function findPackageViolations(bytes: Uint8Array): Violation[];
export declare function formatViolation(v: Violation): string;
/** Human-readable violations; empty means the package satisfies every invariant. */
export declare function checkPackageInvariants(bytes: Uint8Array): string[];
/**
 * A violation's class: its kind and the kind of part it is in (digits stripped, so /ppt/slides/slide7.xml
 * and its clone /ppt/slides/slide3.xml are one class).
 */
export declare function violationClass(v: Violation): string;
/**
 * Violations of `output` whose class the template does not already have: some real decks break an
 * invariant upstream (see package-invariants.test.ts), and a faithful copy keeps that flaw.
 */
export declare function checkPackageInvariantsAgainst(output: Uint8Array, template: Uint8Array): string[];
