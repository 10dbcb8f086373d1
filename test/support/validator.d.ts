export interface ValidatorResult {
    id: string;
    description: string;
    path: {
        xpath: string;
        partUri: string;
    };
}
/** The id given to the one pseudo-error reported when the validator itself throws on a package. */
export declare const VALIDATOR_CRASHED = "ValidatorCrashed";
/** Every validator error of a .pptx (a validator crash becomes one VALIDATOR_CRASHED result). */
export declare function validatePptx(bytes: Uint8Array): Promise<ValidatorResult[]>;
/**
 * An error's identity across cloning: part names are renumbered (slide7.xml -> slide3.xml), so the
 * part is reduced to its kind; the xpath keeps its indices.
 */
export declare function validatorErrorKey(r: ValidatorResult): string;
/**
 * Errors of `output` whose key the template never has. A key the template has at least once is allowed
 * any number of times (a slide cloned three times repeats its template's error three times).
 */
export declare function newValidatorErrors(output: Uint8Array, template: Uint8Array): Promise<ValidatorResult[]>;
/** The error count recorded in the corpus manifest (`ooxml_sdk_validator_baseline.errors`). */
export declare function validatorBaseline(file: string): number | undefined;
export declare function formatValidatorResult(r: ValidatorResult): string;
