/**
 * Turns a finished .pptx into what a person can look at without PowerPoint: a PDF, or one PNG per slide. On
 * one machine or many, the adapter is a pool of long-lived LibreOffice processes; the engine never renders.
 */

/** What to make of the deck. A PDF always comes first; PNG pages are drawn from it. */
export interface RenderRequest {
  /** The account asking: the pool shares its renderers fairly between accounts, as generation does. */
  accountId: string;
  /** Path of the .pptx to render (read, never changed). */
  deckFile: string;
  /** Folder the adapter writes into (it exists and is empty; the caller owns it and removes it). */
  outputDir: string;
  /** Writes `deck.pdf` into `outputDir`. */
  pdf: boolean;
  /** When set, also writes `slide-1.png`, `slide-2.png`, … this many pixels wide, in `outputDir`. */
  pngWidth?: number;
  /** Withdraws the request (the client went away): a waiting one leaves the queue, a running one is stopped. */
  signal?: AbortSignal;
  /**
   * Told the pages rendered of the PDF's pages, as they are known: LibreOffice converts the deck in one step, so
   * without PNG pages the first report is the whole PDF (`pageCount` of `pageCount`); with them, 0 then, and
   * the PNG pages drawn so far as they are drawn (a few at a time). Never a number not yet true.
   */
  onPages?: (pagesRendered: number, pageCount: number) => void;
}

export interface RenderResult {
  /** Absolute path of the PDF, when one was asked for. */
  pdfFile: string | null;
  /** Absolute paths of the PNG pages in slide order ([] when none were asked for). */
  pngFiles: string[];
  /**
   * Pages in the PDF: the visible slides (hidden slides are left out, as PowerPoint's export does). A PDF with
   * any other number of pages is refused (RenderFailedError), never returned.
   */
  pageCount: number;
  /**
   * Font families the deck asks for that were neither installed nor embedded (and drawn), each with what was
   * drawn instead.
   */
  substitutedFonts: { requested: string; used: string }[];
  /** More families the deck asks for that were not installed, past the MAX_FONT_LOOKUPS looked up. */
  otherMissingFonts: string[];
  /** Fonts the deck embeds that were not drawn (a damaged font part, one PowerPoint compressed): the part and why. */
  fontWarnings: { path: string; message: string }[];
}

/** Whether previews can be made here, for /healthz and for a clear refusal. */
export interface RendererStatus {
  available: boolean;
  /** Why not, in words a user can act on ("LibreOffice (soffice) is not installed"), when not available. */
  reason?: string;
  /**
   * Whether renderers run in their sandbox (docs/security.md, "Rendering untrusted decks"): false, with
   * `isolationReason`, where the system cannot give it; `available` is then false too unless
   * `isolationPolicy` (DECKFORGE_RENDER_ISOLATION) is `unsandboxed-accept-risk`. Absent until the tools were
   * looked for.
   */
  isolated?: boolean;
  isolationReason?: string;
  isolationPolicy?: 'required' | 'unsandboxed-accept-risk';
  /** Renderer processes configured, busy, and requests waiting for one. */
  size: number;
  busy: number;
  waiting: number;
}

export interface Renderer {
  /**
   * Rejects with RendererUnavailableError when previews cannot be made on this machine, RenderTimeoutError when
   * the conversion passed its time budget (its process is killed and replaced), RenderFailedError when
   * LibreOffice could not render the deck (or it passed the memory ceiling, or a picture the pixel budget),
   * RendererLostError when the renderer died under it (it is replaced), and RenderCancelledError when `signal`
   * withdrew it.
   */
  render(request: RenderRequest): Promise<RenderResult>;
  status(): RendererStatus;
  /** Resolves once the machine's tools were looked for: `status()` is final from then on (but for start failures). */
  detected(): Promise<void>;
  /** Stops every renderer process; none is left behind. */
  close(): Promise<void>;
}

export class RendererUnavailableError extends Error {
  override readonly name = 'RendererUnavailableError';
}

export class RenderTimeoutError extends Error {
  override readonly name = 'RenderTimeoutError';
  constructor(readonly budgetMs: number) {
    super(`rendering took longer than its ${budgetMs} ms budget and was stopped`);
  }
}

export class RenderFailedError extends Error {
  override readonly name = 'RenderFailedError';
}

/** The renderer died under the deck (killed from outside, a crash): the server's trouble, not the request's. */
export class RendererLostError extends Error {
  override readonly name = 'RendererLostError';
}

export class RenderCancelledError extends Error {
  override readonly name = 'RenderCancelledError';
}

/** Missing font families a renderer looks up per deck (docs/security.md, "Nothing of one request blocks the others"). */
export const MAX_FONT_LOOKUPS = 20;
