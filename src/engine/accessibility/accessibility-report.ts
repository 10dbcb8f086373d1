/**
 * `presentation.accessibility` (docs/payload.md, Accessibility): each output slide is checked as it is written
 * (slide-findings.ts), and what it lacks becomes a warning with a code (`"report"`), or, all of them together,
 * one refusal (`"require"`). A finding about a shape the payload names carries that shape entry's JSON path;
 * one about a shape the payload did not touch names the output slide and the shape.
 */
import { EngineError, type Warning, type WarningCode } from '../errors.js';
import type { AccessibilityMode, ShapeRequest, SlideRequest } from '../payload/model.js';
import type { XmlElement } from '../xml/index.js';
import { slideFindings, type AccessibilityCode, type SlideFinding } from './slide-findings.js';

const WARNING_CODES: Record<AccessibilityCode, WarningCode> = {
  NO_ALT_TEXT: 'ACCESSIBILITY_NO_ALT_TEXT',
  NO_SLIDE_TITLE: 'ACCESSIBILITY_NO_SLIDE_TITLE',
  NO_TABLE_HEADER: 'ACCESSIBILITY_NO_TABLE_HEADER',
};

/** How many problems a `"require"` refusal lists before it counts the rest. */
const MAX_LISTED = 50;

export class AccessibilityReport {
  private readonly found: Warning[] = [];

  constructor(private readonly mode: AccessibilityMode) {}

  get active(): boolean {
    return this.mode !== 'off';
  }

  /** Checks output slide `outputIndex`, made from `slide`. */
  checkSlide(slideRoot: () => XmlElement, slide: SlideRequest, outputIndex: number): void {
    if (!this.active) return;
    for (const finding of slideFindings(slideRoot())) this.found.push(toWarning(finding, slide, outputIndex));
  }

  /** `"report"`: the warnings to add; `"require"`: throws when there is any. */
  finish(): Warning[] {
    if (this.mode !== 'require' || this.found.length === 0) return this.found;
    const listed = this.found.slice(0, MAX_LISTED).map((w, i) => `(${i + 1}) ${w.path}: ${w.message}`);
    if (this.found.length > MAX_LISTED) listed.push(`… and ${this.found.length - MAX_LISTED} more`);
    const [only] = this.found;
    if (this.found.length === 1 && only)
      throw new EngineError('INACCESSIBLE_OUTPUT', `${only.message} (accessibility: "require")`, only.path);
    throw new EngineError(
      'INACCESSIBLE_OUTPUT',
      `${this.found.length} problems (accessibility: "require"): ${listed.join('; ')}`,
    );
  }
}

function toWarning(finding: SlideFinding, slide: SlideRequest, outputIndex: number): Warning {
  const code = WARNING_CODES[finding.code];
  const { shape } = finding;
  if (shape === null)
    return {
      code,
      path: slide.path,
      message: `output slide ${outputIndex} has no title (a title placeholder with text)`,
    };
  const request = slide.shapes.find((r) => names(r, shape));
  const where = request ? '' : `output slide ${outputIndex}: `;
  const what = `${where}${shape.label} "${shape.name}"`;
  const message =
    finding.code === 'NO_ALT_TEXT'
      ? `${what} has no alternative text (give alt_text)`
      : `${what} has no header row (the table's first-row flag is off)`;
  return { code, path: request?.path ?? slide.path, message };
}

function names(request: ShapeRequest, shape: { id: number; name: string }): boolean {
  return request.target.by === 'name' ? request.target.name === shape.name : request.target.id === shape.id;
}
