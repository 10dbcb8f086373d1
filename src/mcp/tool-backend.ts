/**
 * The port the seven MCP tools are written against (docs/mcp.md): what a Deckforge holds for one caller and
 * what it does for them, in the tools' own words. Three implementations: the service itself for `/mcp` on the
 * API server (src/http/mcp-tool-backend.ts), a remote server through the typed client for `deckforge mcp --url`,
 * and the engine on one local folder for `deckforge mcp --local DIR` (src/cli/mcp/). None of them takes or gives a path
 * of the machine it runs on. Every method throws a ToolError (tool-error.ts) for what the caller can act on.
 */
import type { InspectResult, Warning } from '../engine/index.js';

/** A stored template as `list_templates` shows it. */
export interface TemplateSummary {
  id: string;
  name: string;
  version: number;
  slides: number;
}

export type DeckState = 'QUEUED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';

/** A deck `generate_deck` made (or queued), as `generate_deck` and `get_job` give it. */
export interface DeckOutcome {
  /** The job id: `get_job` and `render_preview` take it. */
  deckId: string;
  status: DeckState;
  /** A pre-signed download link (15 minutes) once SUCCEEDED; null before. */
  downloadUrl: string | null;
  slideCount: number | null;
  warnings: Warning[];
  /** FAILED: why. */
  errorMessage: string | null;
  /** `deckforge mcp --local`: where the deck was written, relative to the folder (no link is made there). */
  file?: string;
  /** PROCESSING: slides written of those asked for. */
  progress: { slidesDone: number; slidesTotal: number } | null;
}

export interface UsageFigures {
  usedSlideCount: number;
  allowedSlideCount: number;
  plan: string;
  resetDate: string;
  totalApiCallCount: number;
  successfulApiCallCount: number;
  failedApiCallCount: number;
  previousMonthUsedSlideCount: number;
}

export interface SlidePicture {
  /** 0-based slide index, as the caller asked for it. */
  index: number;
  png: Uint8Array;
}

export interface TemplateUploadRequest {
  name: string;
  /** The template's bytes (`content_base64`), or a public URL fetched through the server's URL guard. */
  source: { bytes: Uint8Array } | { url: string };
}

export type PreviewSource = { deckId: string } | { template: string };

export interface ToolBackend {
  listTemplates(): Promise<TemplateSummary[]>;
  uploadTemplate(upload: TemplateUploadRequest): Promise<{ template: TemplateSummary; created: boolean }>;
  /** The stored template a name (its latest version) or an id names, inspected. */
  inspectTemplate(reference: string): Promise<{ template: TemplateSummary; inspect: InspectResult }>;
  /** Everything generation would say of `jsonData`, without producing or charging anything. */
  checkDeck(jsonData: Record<string, unknown>): Promise<{ slideCount: number; warnings: Warning[] }>;
  /** Generates now when the deck is within the synchronous limit (SUCCEEDED), or queues it as a job (QUEUED). */
  generateDeck(jsonData: Record<string, unknown>): Promise<DeckOutcome>;
  getJob(jobId: string): Promise<DeckOutcome>;
  /** PNGs of the chosen slides, the longest side `longSide` pixels; hidden slides get none. */
  renderPreview(
    source: PreviewSource,
    slides: number[],
    longSide: number,
  ): Promise<{ slides: SlidePicture[]; warnings: Warning[] }>;
  usage(): Promise<UsageFigures>;
}
