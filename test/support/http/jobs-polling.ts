/** Polls the job status endpoint the way the interface tells clients to (with an overall timeout). */
import { bearer } from '../servers/http-harness.js';

export interface StatusBody {
  status: 'QUEUED' | 'PROCESSING' | 'SUCCEEDED' | 'FAILED';
  error_message: string | null;
  file_url: string | null;
  /** The first 300 warnings; `warning_count` is how many there were. */
  warnings: { path: string; message: string }[];
  warning_count: number;
}

export async function readStatus(base: string, token: string, jobId: string): Promise<StatusBody> {
  const response = await fetch(`${base}/v2.0/jobs/${encodeURIComponent(jobId)}/status`, {
    headers: bearer(token),
  });
  if (response.status !== 200)
    throw new Error(`status answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as StatusBody;
}

/** Polls every `intervalMs` until the status is one of `wanted`; returns every status seen on the way. */
export async function pollUntil(
  base: string,
  token: string,
  jobId: string,
  wanted: StatusBody['status'][],
  { timeoutMs = 120_000, intervalMs = 50 } = {},
): Promise<{ last: StatusBody; seen: StatusBody['status'][] }> {
  const deadline = Date.now() + timeoutMs;
  const seen: StatusBody['status'][] = [];
  for (;;) {
    const status = await readStatus(base, token, jobId);
    if (seen[seen.length - 1] !== status.status) seen.push(status.status);
    if (wanted.includes(status.status)) return { last: status, seen };
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export async function submitJob(
  base: string,
  token: string,
  body: FormData | URLSearchParams,
): Promise<string> {
  const response = await fetch(`${base}/v2.0/generator/create-async`, {
    method: 'POST',
    body,
    headers: bearer(token),
  });
  const json = (await response.json()) as { job_id?: string };
  if (response.status !== 202 || !json.job_id)
    throw new Error(`create-async answered ${response.status}: ${JSON.stringify(json)}`);
  return json.job_id;
}
