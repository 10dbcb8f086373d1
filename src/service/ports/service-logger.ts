/** The slice of a structured logger (pino) the service uses. Never pass credentials, tokens or keys. */
export interface ServiceLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const SILENT_LOGGER: ServiceLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
