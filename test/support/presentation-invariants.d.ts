import { type OpcPackage } from './opc-package.js';
import type { Report } from './part-xml-invariants.js';
import { type TreeElement } from './xml-tree.js';
export declare const CT_SLIDE = "application/vnd.openxmlformats-officedocument.presentationml.slide+xml";
export declare const CT_NOTES = "application/vnd.openxmlformats-officedocument.presentationml.notesSlide+xml";
/** p:sldId in [256, 2^31) unique [ST_SlideId]; masters and layouts share one space in [2^31, 2^32) [ST_SlideMasterId]. */
export declare function checkPresentationIds(pkg: OpcPackage, presentationPart: string, pres: TreeElement, report: Report): void;
/** cNvPr ids unique per slide, except repeats across mc:Choice/mc:Fallback; spTgt/bld* spid resolve. */
export declare function checkSlideShapes(part: string, slide: TreeElement, report: Report): void;
/** Exactly one slideLayout relationship per slide; slide <-> notes slide relationships agree. */
export declare function checkSlideRelationships(pkg: OpcPackage, slidePart: string, report: Report): void;
export declare function checkNotesSlide(pkg: OpcPackage, notesPart: string, report: Report): void;
