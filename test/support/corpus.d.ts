/** `../shared/corpus` relative to the repository root; /work/shared/corpus when the clone lives elsewhere. */
export declare const CORPUS_DIR: string;
export interface CorpusFile {
    /** Path relative to the corpus folder, e.g. 'pptx-automizer/ChartScatter.pptx' (the manifest's key). */
    file: string;
    /** Absolute path on disk. */
    path: string;
    bytes: number;
    sha256: string;
    slides: number;
    /** ISO 29500 Strict package (the engine refuses these at open). */
    strict: boolean;
    features: string[];
    /**
     * Open XML SDK validator error count recorded for the file, or undefined when the validator itself
     * crashed on it (`baselineThrows` then holds its message).
     */
    baseline: number | undefined;
    baselineThrows: string | undefined;
}
export interface InvalidCorpusFile {
    file: string;
    path: string;
    bytes: number;
}
/** Every valid deck of the corpus (Strict ones included, flagged), in manifest order. */
export declare function corpusFiles(): CorpusFile[];
/** The deliberately broken inputs (`*\/_invalid/*`): encrypted CFB, truncated or corrupt ZIPs. */
export declare function invalidCorpusFiles(): InvalidCorpusFile[];
/** Looks a file up by its manifest key; throws for a name the manifest does not list. */
export declare function corpusFile(file: string): CorpusFile;
/** The bytes of a corpus file, by manifest key or entry. */
export declare function readCorpus(file: string | {
    path: string;
}): Uint8Array;
