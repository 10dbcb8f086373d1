/**
 * Shared object storage (docs/operations.md): DECKFORGE_S3_BUCKET selects S3 (AWS or any S3-compatible
 * server) for job inputs and results, downloaded through presigned URLs. Credentials come from the AWS SDK's
 * own chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance and container roles), never
 * from here.
 */
import { ConfigError } from './config-error.js';
import { boolean, type Env } from './env-values.js';

export interface S3Settings {
  /** DECKFORGE_S3_BUCKET. */
  bucket: string;
  /** DECKFORGE_S3_REGION, default AWS_REGION, else us-east-1. */
  region: string;
  /** DECKFORGE_S3_ENDPOINT: an S3-compatible server (MinIO, …); null = AWS. */
  endpoint: string | null;
  /** DECKFORGE_S3_FORCE_PATH_STYLE, default false (true for most S3-compatible servers). */
  forcePathStyle: boolean;
}

const OTHER_VARIABLES = ['DECKFORGE_S3_ENDPOINT', 'DECKFORGE_S3_REGION', 'DECKFORGE_S3_FORCE_PATH_STYLE'];

export function loadS3Settings(env: Env): S3Settings | null {
  const bucket = env.DECKFORGE_S3_BUCKET?.trim();
  if (!bucket) {
    const stray = OTHER_VARIABLES.find((name) => env[name]?.trim());
    if (stray)
      throw new ConfigError(`${stray} is set but DECKFORGE_S3_BUCKET is not: set the bucket to use S3`);
    return null;
  }
  // S3's bucket naming rules: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending alphanumeric.
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
    throw new ConfigError(
      `DECKFORGE_S3_BUCKET must be a valid bucket name (3-63 of a-z 0-9 . -), got "${bucket}"`,
    );
  }
  const endpoint = env.DECKFORGE_S3_ENDPOINT?.trim() || null;
  if (endpoint !== null) {
    const parsed = URL.canParse(endpoint) ? new URL(endpoint) : null;
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
      throw new ConfigError(`DECKFORGE_S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
    }
  }
  return {
    bucket,
    region: env.DECKFORGE_S3_REGION?.trim() || env.AWS_REGION?.trim() || 'us-east-1',
    endpoint,
    forcePathStyle: boolean(env, 'DECKFORGE_S3_FORCE_PATH_STYLE', false),
  };
}
