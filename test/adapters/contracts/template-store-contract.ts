/**
 * The TemplateStore contract: versions numbered per account and name (also when two handles on the same storage,
 * two processes, add at once), the latest of each name, what an account holds, the plan's limits checked in the
 * same step as the insert, and accounts never seeing each other's records.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TemplateLimitError,
  type TemplateRecord,
  type TemplateStore,
} from '../../../src/service/ports/index.js';

export interface TemplateHarness {
  templates: TemplateStore;
  openSecond?: () => TemplateStore;
  close(): Promise<void>;
}

const T0 = new Date('2026-11-21T10:00:00.000Z');

function record(accountId: string, name: string, sha: string, bytes = 1000): Omit<TemplateRecord, 'version'> {
  return {
    id: `tpl_${randomBytes(8).toString('hex')}`,
    accountId,
    name,
    sha256: sha.repeat(64).slice(0, 64),
    bytes,
    slides: 3,
    createdAt: T0.toISOString(),
  };
}

export function describeTemplateStoreContract(name: string, make: () => Promise<TemplateHarness>): void {
  describe(`TemplateStore contract: ${name}`, () => {
    let harness: TemplateHarness | null = null;
    const open = async (): Promise<TemplateHarness> => (harness = await make());
    afterEach(async () => {
      await harness?.close();
      harness = null;
    });

    it('numbers the versions of a name from 1 and gives each record back as stored', async () => {
      const { templates } = await open();
      const first = await templates.addVersion(record('a1', 'deck.pptx', 'a'));
      const second = await templates.addVersion(record('a1', 'deck.pptx', 'b', 2000));
      const other = await templates.addVersion(record('a1', 'other.pptx', 'a'));
      const upper = await templates.addVersion(record('a1', 'Zeta.pptx', 'c'));
      expect([first.version, second.version, other.version, upper.version]).toEqual([1, 2, 1, 1]);
      expect(await templates.get('a1', second.id)).toEqual(second);
      expect(second).toMatchObject({
        name: 'deck.pptx',
        bytes: 2000,
        slides: 3,
        createdAt: T0.toISOString(),
      });
      expect(await templates.latest('a1', 'deck.pptx')).toEqual(second);
      expect((await templates.versions('a1', 'deck.pptx')).map((r) => r.version)).toEqual([2, 1]);
      // By name in byte order: upper case before lower case, whichever database is behind.
      expect((await templates.listLatest('a1')).map((r) => [r.name, r.version])).toEqual([
        ['Zeta.pptx', 1],
        ['deck.pptx', 2],
        ['other.pptx', 1],
      ]);
    });

    it('counts names once and each content once', async () => {
      const { templates } = await open();
      expect(await templates.holdings('a1')).toEqual({ templates: 0, bytes: 0 });
      const first = await templates.addVersion(record('a1', 'deck.pptx', 'a', 1000));
      await templates.addVersion(record('a1', 'deck.pptx', 'b', 2000));
      await templates.addVersion(record('a1', 'copy.pptx', 'a', 1000));
      expect(await templates.holdings('a1')).toEqual({ templates: 2, bytes: 3000 });
      expect((await templates.findContent('a1', 'a'.repeat(64)))?.sha256).toBe(first.sha256);
      expect(await templates.findContent('a2', 'a'.repeat(64))).toBeNull();
      expect(await templates.findContent('a1', 'f'.repeat(64))).toBeNull();
    });

    it('keeps accounts apart: another account neither gets, lists nor deletes a record', async () => {
      const { templates } = await open();
      const mine = await templates.addVersion(record('a1', 'deck.pptx', 'a'));
      expect(await templates.get('a2', mine.id)).toBeNull();
      expect(await templates.latest('a2', 'deck.pptx')).toBeNull();
      expect(await templates.listLatest('a2')).toEqual([]);
      expect(await templates.deleteName('a2', 'deck.pptx')).toEqual([]);
      expect(await templates.forgetAccount('a2')).toEqual([]);
      expect(await templates.get('a1', mine.id)).toEqual(mine);
    });

    it('deletes a name with all its versions, and an account with all its names', async () => {
      const { templates } = await open();
      const v1 = await templates.addVersion(record('a1', 'deck.pptx', 'a'));
      const v2 = await templates.addVersion(record('a1', 'deck.pptx', 'b'));
      const kept = await templates.addVersion(record('a1', 'kept.pptx', 'c'));
      const elsewhere = await templates.addVersion(record('a2', 'deck.pptx', 'a'));
      const deleted = await templates.deleteName('a1', 'deck.pptx');
      expect(deleted.map((r) => r.id).sort()).toEqual([v1.id, v2.id].sort());
      expect(await templates.get('a1', v1.id)).toBeNull();
      expect(await templates.listLatest('a1')).toEqual([kept]);
      // A name deleted and stored again starts from version 1.
      expect((await templates.addVersion(record('a1', 'deck.pptx', 'd'))).version).toBe(1);
      expect((await templates.forgetAccount('a1')).length).toBe(2);
      expect(await templates.listLatest('a1')).toEqual([]);
      expect(await templates.listLatest('a2')).toEqual([elsewhere]);
    });

    it('never gives two versions one number, when two handles add to one name at once', async () => {
      const h = await open();
      const second = h.openSecond?.() ?? h.templates;
      const added = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? h.templates : second).addVersion(record('a1', 'deck.pptx', i.toString(16))),
        ),
      );
      expect(added.map((r) => r.version).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('refuses past the templates limit in the same step as the insert: 12 adds at once on two handles, limit 5, end with 5', async () => {
      const h = await open();
      const second = h.openSecond?.() ?? h.templates;
      const limits = { templates: 5, bytes: 1_000_000 };
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? h.templates : second).addVersion(
            record('a1', `deck-${i}.pptx`, i.toString(16)),
            limits,
          ),
        ),
      );
      // Which five get in is the order the two handles take the lock in, not the order of the calls.
      const kept = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(kept).toHaveLength(5);
      for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
        expect(outcome.reason).toBeInstanceOf(TemplateLimitError);
        expect(outcome.reason).toMatchObject({ limit: 'templates', held: { templates: 5 } });
      }
      expect(await h.templates.holdings('a1')).toEqual({ templates: 5, bytes: 5000 });
      // A new version of a name held, and another account, are not refused by it.
      expect((await h.templates.addVersion(record('a1', kept[0]!.name, 'e'), limits)).version).toBe(2);
      expect((await second.addVersion(record('a2', 'deck.pptx', 'a'), limits)).version).toBe(1);
    });

    it('refuses past the bytes limit, counting each content once', async () => {
      const { templates } = await open();
      const limits = { templates: 10, bytes: 2500 };
      await templates.addVersion(record('a1', 'deck.pptx', 'a', 1000), limits);
      await templates.addVersion(record('a1', 'deck.pptx', 'b', 1000), limits);
      // The same bytes under another name take no more room.
      await templates.addVersion(record('a1', 'copy.pptx', 'a', 1000), limits);
      await expect(templates.addVersion(record('a1', 'big.pptx', 'c', 1000), limits)).rejects.toMatchObject({
        limit: 'bytes',
        held: { templates: 2, bytes: 2000 },
      });
      expect(await templates.holdings('a1')).toEqual({ templates: 2, bytes: 2000 });
    });
  });
}
