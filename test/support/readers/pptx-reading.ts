/** What a user checks in a received deck: how many slides it has and which texts they show. */
import { strFromU8, unzipSync } from 'fflate';

export function slideTexts(pptx: Uint8Array): string[] {
  const entries = unzipSync(pptx);
  const slideNames = Object.keys(entries)
    .filter((name) => /^ppt\/slides\/slide\d+\.xml$/.test(name))
    .sort((a, b) => Number(/(\d+)\.xml$/.exec(a)?.[1]) - Number(/(\d+)\.xml$/.exec(b)?.[1]));
  return slideNames.map((name) => {
    const xml = strFromU8(entries[name] as Uint8Array);
    return [...xml.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]).join(' ');
  });
}
