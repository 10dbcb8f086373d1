/** Problems of `output` that `template` does not already have; empty when the output is sound. */
export declare function newPptxProblems(output: Uint8Array, template: Uint8Array): Promise<string[]>;
/** Fails the calling test with a readable list when `output` has problems its template does not. */
export declare function expectValidPptx(output: Uint8Array, template: Uint8Array): Promise<void>;
