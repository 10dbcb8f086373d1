/** A setting is missing or malformed; the message names the variable and what it expects. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
