/**
 * Secrets planted where a renderer must not see (docs/security.md, "What the renderer can see"): in each place, a
 * folder holding a picture of a colour no test deck uses (magenta, 123 × 77: easy to find in a PDF's images or
 * a PNG's pixels) and a text file of words no deck says. The places are the server's own folders (given by the
 * test: its data directory, blob store, scratch folder, renderer folders) and the system's: /var/tmp, /home,
 * /root, /srv, /opt, and a configuration folder under /etc. A place the test cannot write (not root) is
 * reported, so the test can fail under CI=true rather than check less.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { png, type Rgb } from '../decks/test-images.js';

export const SECRET_COLOUR: Rgb = { r: 255, g: 0, b: 255 };
export const SECRET_SIZE = { width: 123, height: 77 };
export const SECRET_WORDS = 'PlantedSecretWordsNoDeckSays';

/** The system's places a renderer must not see. */
export const SYSTEM_PLACES: Record<string, string> = {
  '/var/tmp': '/var/tmp',
  '/home': '/home',
  '/root': '/root',
  '/srv': '/srv',
  '/opt': '/opt',
  'a configuration folder': '/etc',
};

export interface PlantedSecret {
  place: string;
  folder: string;
  picture: string;
  text: string;
}

export interface Planted {
  secrets: PlantedSecret[];
  /** Places that could not be written (reported, never silently dropped). */
  missed: string[];
  remove(): void;
}

/** Plants a secret in each place (name → folder: a folder of the secret's own is made inside it). */
export async function plantSecrets(places: Record<string, string>): Promise<Planted> {
  const picture = await png(SECRET_SIZE.width, SECRET_SIZE.height, SECRET_COLOUR);
  const secrets: PlantedSecret[] = [];
  const missed: string[] = [];
  const made: string[] = [];
  for (const [place, base] of Object.entries(places)) {
    try {
      mkdirSync(base, { recursive: true });
      const folder = mkdtempSync(join(base, 'deckforge-secret-'));
      made.push(folder);
      const secret = { place, folder, picture: join(folder, 'secret.png'), text: join(folder, 'secret.txt') };
      writeFileSync(secret.picture, picture);
      writeFileSync(secret.text, `${SECRET_WORDS} in ${place}\n`);
      secrets.push(secret);
    } catch {
      missed.push(place);
    }
  }
  return {
    secrets,
    missed,
    remove: () => {
      for (const folder of made) rmSync(folder, { recursive: true, force: true });
    },
  };
}
