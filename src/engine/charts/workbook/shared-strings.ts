/**
 * The workbook's shared string table (`xl/sharedStrings.xml`, SpreadsheetML §18.4): text cells hold an index
 * into it (`t="s"`), as Excel and PowerPoint write them. New texts are appended; existing entries are never
 * renumbered, since other sheets' cells point at them.
 */
import {
  childElements,
  element,
  serializeXml,
  text,
  textContent,
  type XmlDocument,
} from '../../xml/index.js';

export class SharedStrings {
  private readonly index = new Map<string, number>();
  private readonly items: string[] = [];
  private count: number;
  changed = false;

  constructor(
    readonly partName: string,
    private readonly document: XmlDocument,
  ) {
    const items = childElements(document.root, this.name('si'));
    items.forEach((si, i) => {
      // Only plain entries are reused; rich-text entries keep their runs for the cells that use them.
      const plain = childElements(si).length === 1 && childElements(si, this.name('t')).length === 1;
      const value = textContent(si);
      this.items.push(value);
      if (plain && !this.index.has(value)) this.index.set(value, i);
    });
    this.count = items.length;
  }

  /** The text of entry `i` ('' when there is none). */
  textAt(i: number): string {
    return this.items[i] ?? '';
  }

  /** The index of `value`, appending it when the table does not have it yet. */
  indexOf(value: string): number {
    let found = this.index.get(value);
    if (found === undefined) {
      found = this.count++;
      const t = element(this.name('t'), /^\s|\s$/.test(value) ? { 'xml:space': 'preserve' } : {}, [
        text(value),
      ]);
      this.document.root.children.push(element(this.name('si'), {}, [t]));
      this.index.set(value, found);
      this.items.push(value);
      this.changed = true;
    }
    return found;
  }

  serialize(): string {
    // `count` (references across the workbook) is optional and would need every sheet read; uniqueCount is kept true.
    delete this.document.root.attrs.count;
    this.document.root.attrs.uniqueCount = String(this.count);
    return serializeXml(this.document);
  }

  private name(local: string): string {
    const root = this.document.root.name;
    const colon = root.indexOf(':');
    return colon < 0 ? local : `${root.slice(0, colon)}:${local}`;
  }
}
