/**
 * The configuration a command starts from; a bad setting ends it with exit code 2. The commands that run the
 * service (`serve`, `worker`) also refuse a half-shared set of stores; `migrate` needs only the database.
 */
import { ConfigError, loadConfig, refuseHalfSharedConfig, type Config } from '../config/index.js';
import type { CommandIo } from './command-io.js';

export function loadCommandConfig(command: string, io: CommandIo): Config | null {
  try {
    const config = loadConfig();
    if (command === 'serve' || command === 'worker') refuseHalfSharedConfig(config);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`deckforge ${command}: ${error.message}\n`);
      return null;
    }
    throw error;
  }
}
