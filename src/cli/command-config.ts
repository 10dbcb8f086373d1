/** The configuration a long-running command starts from; a bad setting ends it with exit code 2. */
import { ConfigError, loadConfig, type Config } from '../config/index.js';
import type { CommandIo } from './command-io.js';

export function loadCommandConfig(command: string, io: CommandIo): Config | null {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`deckforge ${command}: ${error.message}\n`);
      return null;
    }
    throw error;
  }
}
