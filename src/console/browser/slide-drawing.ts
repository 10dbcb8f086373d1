/**
 * Draws one slide (or layout) as an SVG from slide-geometry.ts's plan: a rectangle per shape with its name, kind
 * and text, all as text nodes. Each rectangle is a button: a click, Enter or Space hands the shape to `onPick`.
 */
import { el, svg } from './dom-builder.js';
import type { InspectedShape } from './inspect-types.js';
import type { SlidePlan } from './slide-geometry.js';
import { kindLabel } from './slide-geometry.js';

export function drawSlide(
  plan: SlidePlan,
  title: string,
  onPick: (shape: InspectedShape) => void,
): SVGSVGElement {
  const drawing = svg('svg', {
    class: 'slide-drawing',
    viewBox: `0 0 ${plan.width} ${plan.height}`,
    role: 'group',
    'aria-label': title,
    preserveAspectRatio: 'xMidYMid meet',
  });
  drawing.appendChild(
    svg('rect', { class: 'slide-background', x: 0, y: 0, width: plan.width, height: plan.height }),
  );
  for (const item of plan.placed) {
    const shape = item.shape;
    const label = `${shape.name} (${kindLabel(shape)})`;
    const group = svg(
      'g',
      {
        class: `shape kind-${shape.kind}`,
        tabindex: 0,
        role: 'button',
        'aria-label': `Copy ${label}`,
        'data-shape-name': shape.name,
      },
      svg('title', {}, shape.text ? `${label}\n${shape.text}` : label),
      svg('rect', { x: item.x, y: item.y, width: item.width, height: item.height }),
    );
    // Over a slide's picture (console.css, .has-picture) the name and kind go on a tab of their own, on the box's
    // top edge, outside it where the slide has room: not on the slide's text, which is there to read.
    const tabHeight = item.fontSize * 1.45;
    const tabY = item.y >= tabHeight ? item.y - tabHeight : item.y;
    group.append(
      svg('rect', { class: 'label-chip', x: item.x, y: tabY, width: item.labelWidth, height: tabHeight }),
      svg(
        'text',
        {
          class: 'label-tab',
          x: item.x + item.fontSize / 3,
          y: tabY + item.fontSize * 1.1,
          'font-size': item.fontSize,
        },
        item.lines[0] ?? '',
      ),
    );
    const text = svg('text', {
      class: 'in-box',
      x: item.x + item.fontSize / 3,
      y: item.y,
      'font-size': item.fontSize,
    });
    item.lines.forEach((line, i) =>
      text.appendChild(
        svg(
          'tspan',
          { x: item.x + item.fontSize / 3, dy: i === 0 ? item.fontSize * 1.1 : item.fontSize * 1.2 },
          line,
        ),
      ),
    );
    group.appendChild(text);
    group.addEventListener('click', () => onPick(shape));
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onPick(shape);
      }
    });
    drawing.appendChild(group);
  }
  return drawing;
}

/**
 * A slide's picture, laid under its drawing (console.css `.slide-stage`): it fills the drawing's box, which has
 * the slide's aspect ratio, as the picture (one page of the slide's PDF) has too.
 */
export function slidePicture(src: string, description: string): HTMLImageElement {
  return el('img', { class: 'slide-picture', src, alt: description, decoding: 'async' });
}

/** Shapes without a position, as a list of buttons under the drawing. */
export function unplacedList(
  shapes: InspectedShape[],
  onPick: (shape: InspectedShape) => void,
): HTMLElement | null {
  if (shapes.length === 0) return null;
  return el(
    'ul',
    { class: 'unplaced' },
    ...shapes.map((shape) =>
      el(
        'li',
        {},
        el(
          'button',
          { type: 'button', class: 'link', onclick: () => onPick(shape) },
          `${shape.name} (${kindLabel(shape)})`,
        ),
        ' — no position on the slide',
      ),
    ),
  );
}
