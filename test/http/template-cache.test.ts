/**
 * The parsed-template cache over real HTTP with the typed client (docs/configuration.md,
 * DECKFORGE_TEMPLATE_CACHE_MB): the same template uploaded again, or stored and named, gives byte for byte the
 * deck the first upload gave, and the same deck as a server that keeps no templates (0); a stored template's
 * inspection reads the same twice. One generation thread, so a repeated template meets the cache that opened it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeckforgeClient, type JsonData } from '../../packages/client/src/index.js';
import { expectValidPptx } from '../support/checks/expect-valid-pptx.js';
import { titleDeck } from '../support/http/payloads.js';
import { slideTexts } from '../support/readers/pptx-reading.js';
import { startServer, type RunningServer } from '../support/servers/http-harness.js';
import { TEMPLATE_NAME, TEMPLATE_SLIDES, templateBytes } from '../support/servers/http-harness-paths.js';

const LAYOUTS = templateBytes();
const payload = (template = TEMPLATE_NAME): JsonData => titleDeck(3, { template }) as JsonData;
const SAMPLE = new Uint8Array(readFileSync(new URL('../../examples/sample-template.pptx', import.meta.url)));
/** The sample's first slide, twice, its {{company}} and {{quarter}} tags filled. */
const tagged = (company: string): JsonData => ({
  presentation: {
    template: 'sample-template.pptx',
    slides: [0, 1].map((i) => ({
      slide_index: 0,
      tags: [
        { key: 'company', value: company },
        { key: 'quarter', value: `Q${i + 1}` },
      ],
    })),
  },
});

let cached: RunningServer;
let uncached: RunningServer;
beforeAll(async () => {
  cached = await startServer({ overrides: { workers: 1 } });
  uncached = await startServer({ overrides: { workers: 1, templateCacheMb: 0 } });
}, 120_000);
afterAll(async () => {
  await cached?.close();
  await uncached?.close();
});

async function clientOf(server: RunningServer): Promise<DeckforgeClient> {
  return new DeckforgeClient({ baseUrl: server.base, ...(await server.createAccount()) });
}

describe('the parsed-template cache', () => {
  it('gives the same deck for the same template uploaded twice, as a server without the cache does', async () => {
    const client = await clientOf(cached);
    const first = await client.generate(LAYOUTS, payload());
    const second = await client.generate(Uint8Array.from(LAYOUTS), payload());
    await expectValidPptx(first, LAYOUTS);
    expect(second).toEqual(first);
    expect(slideTexts(first)).toHaveLength(3);

    const withoutCache = await clientOf(uncached);
    const plain = await withoutCache.generate(LAYOUTS, payload());
    expect(await withoutCache.generate(LAYOUTS, payload())).toEqual(plain);
    expect(plain).toEqual(first);
  });

  it('fills a cached template afresh for each request: its tags are still there for the next one', async () => {
    const client = await clientOf(cached);
    const withoutCache = await clientOf(uncached);
    for (const company of ['Acme', 'Globex', 'Initech']) {
      const deck = await client.generate(SAMPLE, tagged(company));
      await expectValidPptx(deck, SAMPLE);
      expect(slideTexts(deck)[0]).toContain(company);
      expect(deck).toEqual(await withoutCache.generate(SAMPLE, tagged(company)));
    }
  });

  it('gives the uploaded template’s deck for the stored template, and its inspection twice alike', async () => {
    const client = await clientOf(cached);
    const uploaded = await client.generate(LAYOUTS, payload());
    const stored = await client.uploadTemplate(LAYOUTS, 'quarterly.pptx');
    const byName = await client.generate(null, payload('quarterly.pptx'));
    const again = await client.generate(null, payload(stored.id));
    await expectValidPptx(byName, LAYOUTS);
    expect(slideTexts(byName)).toEqual(slideTexts(uploaded));
    expect(again).toEqual(byName);

    const detail = await client.getTemplate(stored.id);
    expect(detail.inspect.slides).toHaveLength(TEMPLATE_SLIDES);
    expect(await client.getTemplate(stored.id)).toEqual(detail);
    expect(await client.inspect(LAYOUTS)).toEqual(detail.inspect);
  });
});
