/**
 * The owned picture template of the engine's picture scenarios (pictures.test.ts), on the layouts template's
 * master (one-slide-deck.ts), its images made by sharp (test-images.ts). Its slides:
 *   0 "imagePNG" (a 3:2 frame showing ppt/media/image2.png, 240 × 160 px) and "imageJPG" (a 4:3 frame showing
 *     ppt/media/image1.jpeg, 320 × 240 px);
 *   1 pictures the template crops or shapes: "Top 0.33" (its top third cropped, 3:2 frame), "Left 0.5" (its left
 *     half cropped, 2:3 frame), "RoundedRectangle" (a square frame of rounded-rectangle geometry);
 *   2 "Linked picture": a picture whose image is a linked file (`r:link`, an external relationship), not in the
 *     package.
 */
import { slidesDeck, titleShape } from './one-slide-deck.js';
import { BLUE, GREEN, jpeg, png } from './test-images.js';

interface Frame {
  x: number;
  y: number;
  cx: number;
  cy: number;
}

function picture(
  id: number,
  name: string,
  blip: string,
  frame: Frame,
  srcRect = '',
  geometry = 'rect',
): string {
  return (
    `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"/><p:cNvPicPr><a:picLocks noChangeAspect="1"/></p:cNvPicPr><p:nvPr/></p:nvPicPr>` +
    `<p:blipFill>${blip}${srcRect}<a:stretch><a:fillRect/></a:stretch></p:blipFill>` +
    `<p:spPr><a:xfrm><a:off x="${frame.x}" y="${frame.y}"/><a:ext cx="${frame.cx}" cy="${frame.cy}"/></a:xfrm>` +
    `<a:prstGeom prst="${geometry}"><a:avLst/></a:prstGeom></p:spPr></p:pic>`
  );
}

const embedded = (rId: string): string => `<a:blip r:embed="${rId}"/>`;

const PNG = await png(240, 160, BLUE);
const JPEG = await jpeg(320, 240, GREEN);

let bytes: Uint8Array | undefined;

/** The deck's bytes (a fresh copy each call). */
export function picturesDeck(): Uint8Array {
  bytes ??= slidesDeck([
    {
      layout: 6,
      shapes:
        titleShape('Pictures') +
        picture(3, 'imagePNG', embedded('rId2'), { x: 457200, y: 1600200, cx: 3429000, cy: 2286000 }) +
        picture(4, 'imageJPG', embedded('rId3'), { x: 4572000, y: 1600200, cx: 4114800, cy: 3086100 }),
      rels: [
        ['rId2', 'image', '../media/image2.png'],
        ['rId3', 'image', '../media/image1.jpeg'],
      ],
      parts: {
        'ppt/media/image2.png': { bytes: PNG, type: null },
        'ppt/media/image1.jpeg': { bytes: JPEG, type: null },
      },
      defaults: { png: 'image/png', jpeg: 'image/jpeg' },
    },
    {
      layout: 6,
      shapes:
        titleShape('Cropped pictures') +
        picture(
          3,
          'Top 0.33',
          embedded('rId2'),
          { x: 457200, y: 1600200, cx: 2743200, cy: 1828800 },
          '<a:srcRect t="33000"/>',
        ) +
        picture(
          4,
          'Left 0.5',
          embedded('rId2'),
          { x: 3429000, y: 1600200, cx: 1828800, cy: 2743200 },
          '<a:srcRect l="50000"/>',
        ) +
        picture(
          5,
          'RoundedRectangle',
          embedded('rId3'),
          { x: 5486400, y: 1600200, cx: 2286000, cy: 2286000 },
          '',
          'roundRect',
        ),
      rels: [
        ['rId2', 'image', '../media/image2.png'],
        ['rId3', 'image', '../media/image1.jpeg'],
      ],
    },
    {
      layout: 6,
      shapes:
        titleShape('A linked picture') +
        picture(3, 'Linked picture', '<a:blip r:link="rId2"/>', {
          x: 457200,
          y: 1600200,
          cx: 3429000,
          cy: 2286000,
        }),
      rels: [['rId2', 'image', 'file:///C:/Pictures/linked-photo.png', 'External']],
    },
  ]);
  return bytes.slice();
}
