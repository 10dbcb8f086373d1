/** The guarded fetcher: the TemplateFetcher contract, plus its per-hop address policy. */
import { describe, expect, it } from 'vitest';
import { refusedAddressReason } from '../../../src/adapters/url-fetch/address-policy.js';
import { GuardedUrlFetcher } from '../../../src/adapters/url-fetch/guarded-url-fetcher.js';
import { FetchError } from '../../../src/service/ports/index.js';
import {
  describeTemplateFetcherContract,
  fetcherTestServer,
} from '../contracts/template-fetcher-contract.js';

describeTemplateFetcherContract('guarded URL fetcher', (options) => new GuardedUrlFetcher(options));

describe('guarded URL fetcher', () => {
  it('checks every redirect hop: an allowed first hop cannot bounce to the metadata address', async () => {
    // Only the test server's address is allowed; everything else follows the default policy.
    const fetcher = new GuardedUrlFetcher({
      allowPrivateUrls: false,
      timeoutMs: 5000,
      maxBytes: 5000,
      refusedAddress: (address) => (address === '127.0.0.1' ? null : refusedAddressReason(address)),
    });
    expect(Buffer.from(await fetcher.fetch(`${fetcherTestServer.base}/redirect?hops=1`)).toString()).toBe(
      'PK-deck-bytes',
    );
    const error = await fetcher.fetch(`${fetcherTestServer.base}/to-metadata`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    expect((error as FetchError).message).toMatch(/169\.254\.169\.254.* link-local \/ metadata address/);
  });
});
