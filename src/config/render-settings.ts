/**
 * The settings of the preview renderer (PDF and PNG through a pool of LibreOffice processes,
 * src/adapters/libreoffice/): how many processes, how long one render may take, when a process is replaced, and where
 * its programs are found.
 */
import { availableParallelism } from 'node:os';
import { ConfigError } from './config-error.js';
import { integer, type Env } from './env-values.js';

/**
 * DECKFORGE_RENDER_ISOLATION: `required` renders only in the renderers' sandbox; `unsandboxed-accept-risk` renders
 * without one where the system cannot give it, the operator having accepted by name what that leaves open.
 */
export type IsolationPolicy = 'required' | 'unsandboxed-accept-risk';

export interface RenderSettings {
  /** DECKFORGE_RENDERERS, default half the cores (at least 1): LibreOffice processes kept running. */
  renderers: number;
  /** DECKFORGE_RENDER_TIMEOUT_SECONDS, default 60: one render; past it its process is killed and replaced. */
  timeoutMs: number;
  /** DECKFORGE_RENDER_RECYCLE_AFTER, default 200: a process is replaced after this many conversions. */
  recycleAfter: number;
  /** DECKFORGE_RENDER_MEMORY_MB, default 1024: ... or once LibreOffice's resident memory passes this. */
  memoryMb: number;
  /** DECKFORGE_RENDER_PYTHON: a Python with LibreOffice's uno module; null = /usr/bin/python3, then python3. */
  python: string | null;
  /** PATH, where soffice, pdftoppm, pdfinfo, fc-list and fc-match are looked for. */
  searchPath: string;
  /**
   * DECKFORGE_RENDER_ISOLATION, default `required`: no renderer starts outside its sandbox; with
   * `unsandboxed-accept-risk`, renderers run without one where the system cannot give it (docs/security.md).
   */
  isolation: IsolationPolicy;
}

const ISOLATION_POLICIES: readonly IsolationPolicy[] = ['required', 'unsandboxed-accept-risk'];

export function loadRenderSettings(env: Env): RenderSettings {
  const python = env.DECKFORGE_RENDER_PYTHON?.trim() || null;
  if (python !== null && /[\n\0]/.test(python)) {
    throw new ConfigError('DECKFORGE_RENDER_PYTHON must be a program name or path');
  }
  const isolation = (env.DECKFORGE_RENDER_ISOLATION?.trim() || 'required') as IsolationPolicy;
  if (!ISOLATION_POLICIES.includes(isolation)) {
    // `auto` rendered without the sandbox, silently, wherever the system gave none: it is no longer a choice.
    throw new ConfigError(
      `DECKFORGE_RENDER_ISOLATION must be required or unsandboxed-accept-risk, got "${env.DECKFORGE_RENDER_ISOLATION}"` +
        (isolation === ('auto' as string)
          ? ': auto is no more, renderers run in their sandbox or, where the system cannot give one, only with unsandboxed-accept-risk (docs/security.md)'
          : ''),
    );
  }
  return {
    renderers: integer(
      env,
      'DECKFORGE_RENDERERS',
      Math.max(1, Math.floor(availableParallelism() / 2)),
      1,
      256,
    ),
    timeoutMs: integer(env, 'DECKFORGE_RENDER_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    recycleAfter: integer(env, 'DECKFORGE_RENDER_RECYCLE_AFTER', 200, 1, 1_000_000),
    memoryMb: integer(env, 'DECKFORGE_RENDER_MEMORY_MB', 1024, 128, 65_536),
    python,
    searchPath: env.PATH ?? '',
    isolation,
  };
}
