#!/usr/bin/env node
/**
 * Picture benchmark, deckforge and pptx-automizer on the same template and the same work, in one
 * run. After `npm run build`:   node bench/pictures/run.js [--rounds N]
 *
 * Template: pptx-automizer/SlideWithImages.pptx, slide 0, picture "Grafik 5" (a JPEG), 100 output slides.
 * - P1: every slide puts the same 1 MB JPEG into the picture with `cover`.
 * - P2: every slide puts a different 200 KB PNG into it (`contain`).
 * In process: median wall time from template and image bytes to output bytes, after warm-up; deckforge's
 * figure includes the image preparation step (it has nothing to convert here, only headers to read), and
 * generate alone is shown beside it. pptx-automizer: loadMediaBuffer + addSlide + modifyElement with
 * ModifyImageHelper.setRelationTargetCover (P1) / setRelationTarget (P2) + getJSZip().generateAsync.
 * Whole process: `deckforge generate` with the images as files on the command line, wall time and peak RSS.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import automizerModule from 'pptx-automizer';
import sharp from 'sharp';
import { DEFAULT_IMAGE_LIMITS, generate, parsePayload } from '../../dist/engine/index.js';
import { prepareImages } from '../../dist/image-preparation/prepare-images.js';
import { CORPUS, generateRuns, median, ms, rounds, time } from '../support.js';

const TEMPLATE_PATH = join(CORPUS, 'pptx-automizer', 'SlideWithImages.pptx');
const TEMPLATE = new Uint8Array(readFileSync(TEMPLATE_PATH));
const PICTURE = 'Grafik 5';
const SLIDES = 100;
const ROUNDS = rounds(15);

/** Noise compresses badly, so a small picture makes a file of the wanted size. */
async function noise(width, height, format) {
  const image = sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });
  return new Uint8Array(await (format === 'jpeg' ? image.jpeg({ quality: 92 }) : image.png()).toBuffer());
}

function payload(names, fit) {
  return {
    presentation: {
      template: 'images.pptx',
      slides: names.map((name) => ({ slide_index: 0, shapes: [{ name: PICTURE, filename: name, fit }] })),
    },
  };
}

function deckforge(names, images, fit, withPreparation) {
  const files = new Map([['images.pptx', TEMPLATE], ...images]);
  const body = payload(names, fit);
  return async () => {
    let prepared;
    if (withPreparation) {
      const { request } = parsePayload(body);
      prepared = await prepareImages(request, files, { limits: DEFAULT_IMAGE_LIMITS });
    }
    return generate({ payload: body, files, ...(prepared ? { images: prepared } : {}) }).bytes;
  };
}

function automizer(names, images, cover) {
  const Automizer = automizerModule.default ?? automizerModule.Automizer;
  const { ModifyImageHelper } = automizerModule;
  const distinct = [...new Set(names)];
  return async () => {
    const pres = new Automizer({
      templateDir: dirname(TEMPLATE_PATH),
      removeExistingSlides: true,
      autoImportSlideMasters: false,
      verbosity: 0,
    })
      .loadRoot('SlideWithImages.pptx')
      .load('SlideWithImages.pptx', 'template')
      .loadMediaBuffer(
        distinct,
        distinct.map((n) => Buffer.from(images.get(n))),
      );
    for (const name of names) {
      pres.addSlide('template', 1, (slide) => {
        slide.modifyElement(PICTURE, [
          cover
            ? ModifyImageHelper.setRelationTargetCover(name, pres)
            : ModifyImageHelper.setRelationTarget(name),
        ]);
      });
    }
    const zip = await pres.getJSZip();
    return zip.generateAsync({ type: 'uint8array' });
  };
}

/** `deckforge generate` as a process, the images as files on the command line: wall time and peak RSS. */
function cliRun(names, images, fit) {
  const dir = mkdtempSync(join(tmpdir(), 'deckforge-bench-pictures-'));
  const paths = [...images].map(([name, bytes]) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  });
  writeFileSync(
    join(dir, 'payload.json'),
    JSON.stringify({ ...payload(names, fit) }).replace('images.pptx', 'SlideWithImages.pptx'),
  );
  const runs = generateRuns(
    [TEMPLATE_PATH, ...paths, join(dir, 'payload.json'), '-o', join(dir, 'out.pptx'), '-q'],
    5,
  );
  return { wall: median(runs.map((r) => r.wall)), rss: Math.max(...runs.map((r) => r.rss)) };
}

const photo = await noise(1250, 920, 'jpeg');
const p1Images = new Map([['photo.jpg', photo]]);
const p1Names = Array.from({ length: SLIDES }, () => 'photo.jpg');
const p2Images = new Map();
for (let i = 0; i < SLIDES; i++) p2Images.set(`image${i}.png`, await noise(260, 256, 'png'));
const p2Names = [...p2Images.keys()];
const p2Bytes = [...p2Images.values()].reduce((sum, b) => sum + b.byteLength, 0) / SLIDES;

console.log(
  `Picture benchmark, ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds (median), ${SLIDES} output slides of pptx-automizer/SlideWithImages.pptx`,
);
console.log(
  `P1 JPEG: ${(photo.byteLength / 1024).toFixed(0)} KB; P2 PNGs: ${(p2Bytes / 1024).toFixed(0)} KB each on average`,
);
console.log('');
const p1cli = cliRun(p1Names, p1Images, 'cover');
const p2cli = cliRun(p2Names, p2Images, 'contain');
console.log(
  '| scenario | deckforge (preparation + generate) | deckforge generate alone | pptx-automizer | automizer ÷ deckforge | deckforge generate process: wall, peak RSS |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const [label, names, images, fit, cli] of [
  ['P1: same 1 MB JPEG ×100, cover', p1Names, p1Images, 'cover', p1cli],
  ['P2: 100 different 200 KB PNGs', p2Names, p2Images, 'contain', p2cli],
]) {
  const full = await time(deckforge(names, images, fit, true), ROUNDS, 2000);
  const engine = await time(deckforge(names, images, fit, false), ROUNDS, 2000);
  let peer = NaN;
  try {
    peer = await time(automizer(names, images, fit === 'cover'), 5, 0);
  } catch (error) {
    console.error(`pptx-automizer failed on ${label}: ${error.message}`);
  }
  console.log(
    `| ${label} | ${ms(full)} | ${ms(engine)} | ${ms(peer)} | ${(peer / full).toFixed(1)}× | ${ms(cli.wall)}, ${cli.rss.toFixed(0)} MB |`,
  );
}
