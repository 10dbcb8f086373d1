/**
 * The template inspector: every slide and layout drawn at its true aspect ratio, each shape a box at its position
 * with its name, kind and text. Clicking a box (or Enter on it) copies a ready `shapes[]` entry for it. Where the
 * server can draw slide pictures (slide-pictures.ts), a button draws each visible slide's picture under its boxes
 * (charged as a render, so never without asking).
 */
import { copyText } from '../copy-button.js';
import { formatSlideSize } from '../display-format.js';
import { el, replaceChildren } from '../dom-builder.js';
import type { InspectedShape } from '../inspect-types.js';
import { shapeEntry } from '../shape-entry.js';
import { drawSlide, slidePicture, unplacedList } from '../slide-drawing.js';
import { planSlide, slideSize } from '../slide-geometry.js';
import { loadSlidePictures, whyBoxesAlone } from '../slide-pictures.js';
import { inspectedTemplate, type InspectedTemplate, type PictureOutcome } from '../template-state.js';
import { inspectForm } from './inspect-form.js';

/** Slides drawn per animation frame: the first appears at once, a long deck does not freeze the page. */
const PER_FRAME = 6;

export function renderInspector(main: HTMLElement): void {
  const picked = el('section', { id: 'picked', class: 'card picked', 'aria-live': 'polite', hidden: true });
  const drawings = el('div', { id: 'drawings' });
  main.append(
    el('p', {}, 'See which box is which: click a shape to copy its ', el('code', {}, 'shapes[]'), ' entry.'),
    inspectForm((template) => showTemplate(drawings, picked, template)),
    drawings,
    picked,
  );
  const kept = inspectedTemplate();
  if (kept) showTemplate(drawings, picked, kept);
  // The entry panel covers part of the drawings: Escape closes it, as its close button does.
  const closeOnEscape = (event: KeyboardEvent): void => {
    if (!picked.isConnected) document.removeEventListener('keydown', closeOnEscape);
    else if (event.key === 'Escape') picked.hidden = true;
  };
  document.addEventListener('keydown', closeOnEscape);
}

function showTemplate(drawings: HTMLElement, picked: HTMLElement, template: InspectedTemplate): void {
  const { result } = template;
  const size = slideSize(result);
  const onPick = (shape: InspectedShape): void => pick(picked, shape);
  const items: { heading: string; shapes: InspectedShape[]; slideIndex?: number }[] = [
    ...result.slides.map((slide) => ({
      heading: `Slide ${slide.index}${slide.layout ? ` · layout “${slide.layout}”` : ''}${slide.hidden ? ' · hidden' : ''}`,
      shapes: slide.shapes,
      slideIndex: slide.index,
    })),
    ...result.layouts.map((layout) => ({
      heading: `Layout ${layout.index} · ${layout.name}`,
      shapes: layout.shapes,
    })),
  ];
  const note = el('p', { id: 'picture-note', class: 'picture-note', role: 'status' });
  const slidesSection = el(
    'section',
    { 'aria-labelledby': 'slides-heading' },
    el('h2', { id: 'slides-heading' }, `${result.slides.length} slides`),
  );
  const layoutsSection = el(
    'section',
    { 'aria-labelledby': 'layouts-heading' },
    el('h2', { id: 'layouts-heading' }, `${result.layouts.length} layouts (for "type": "layout")`),
  );
  replaceChildren(
    drawings,
    el(
      'p',
      { class: 'muted' },
      `${template.templateName}${template.stored ? ' (stored on the server)' : ''} · ${formatSlideSize(size.cx, size.cy)} · `,
      el('a', { href: '/console/playground' }, 'Fill it in the playground'),
    ),
    note,
    slidesSection,
    layoutsSection,
  );
  // The pictures come seconds after the boxes: each drawn slide gets its own when they arrive (or at once, when
  // they came before it was drawn, or on coming back to a template whose pictures are kept).
  const stages = new Map<number, HTMLElement>();
  let outcome: PictureOutcome | null = null;
  const addPicture = (index: number, stage: HTMLElement): void => {
    const src = outcome?.pictures.get(index);
    if (!src) return;
    stage.prepend(slidePicture(src, `Slide ${index} as LibreOffice draws it`));
    stage.classList.add('has-picture');
  };
  const show = (pictures: Promise<PictureOutcome>): void => {
    note.textContent = 'Drawing the slide pictures…';
    void pictures.then((arrived) => {
      if (!note.isConnected) return; // another template (or page) is shown by now
      outcome = arrived;
      note.textContent = arrived.note;
      for (const [index, stage] of stages) addPicture(index, stage);
    });
  };
  // Drawn once per template, and only when asked: they count against the allowance.
  if (template.pictures) show(template.pictures);
  else void offerPictures(template, note, () => show((template.pictures ??= loadSlidePictures(template))));
  const drawnWidth = stageWidth(slidesSection);
  let next = 0;
  const drawBatch = (): void => {
    for (const end = Math.min(items.length, next + PER_FRAME); next < end; next++) {
      const item = items[next];
      if (!item) continue;
      const plan = planSlide(item.shapes, size, drawnWidth);
      const stage = el('div', { class: 'slide-stage' }, drawSlide(plan, item.heading, onPick));
      if (item.slideIndex !== undefined) {
        stages.set(item.slideIndex, stage);
        addPicture(item.slideIndex, stage);
      }
      const figure = el(
        'figure',
        { class: 'slide' },
        stage,
        el(
          'figcaption',
          {},
          item.heading,
          ` · ${item.shapes.length} shape${item.shapes.length === 1 ? '' : 's'}`,
        ),
        unplacedList(plan.unplaced, onPick),
      );
      (next < result.slides.length ? slidesSection : layoutsSection).appendChild(figure);
      if (next === 0) requestAnimationFrame(() => performance.mark('inspect-first-drawing'));
    }
    if (next < items.length) requestAnimationFrame(drawBatch);
  };
  drawBatch();
}

/** The CSS pixels across a drawing in `section`'s grid (console.css), read once from an empty stand-in. */
function stageWidth(section: HTMLElement): number | undefined {
  const stage = el('div', { class: 'slide-stage' });
  const probe = el('figure', { class: 'slide' }, stage);
  section.appendChild(probe);
  const width = stage.clientWidth;
  probe.remove();
  return width > 0 ? width : undefined;
}

function pick(picked: HTMLElement, shape: InspectedShape): void {
  const entry = JSON.stringify(shapeEntry(shape), null, 2);
  picked.hidden = false;
  const status = el('p', { class: 'message success', role: 'status' }, 'Copying…');
  replaceChildren(
    picked,
    closeButton(picked),
    el('h2', {}, 'Shape ', el('span', { class: 'shape-name' }, shape.name)),
    el(
      'p',
      { class: 'muted' },
      `${shape.kind} · id ${shape.id}${shape.group ? ` · in group “${shape.group}”` : ''}`,
    ),
    el('pre', { class: 'entry mono', id: 'picked-entry' }, entry),
    status,
  );
  void copyText(entry).then((ok) => {
    status.textContent = ok ? 'The entry is copied to the clipboard.' : 'Select the entry above to copy it.';
  });
}

function closeButton(picked: HTMLElement): HTMLElement {
  const button = el('button', { type: 'button', class: 'link close', 'aria-label': 'Close (Escape)' }, '×');
  button.addEventListener('click', () => {
    picked.hidden = true;
  });
  return button;
}

/** The boxes alone and a button that draws the visible slides under them, when the server can; else why not. */
async function offerPictures(
  template: InspectedTemplate,
  note: HTMLElement,
  draw: () => void,
): Promise<void> {
  const why = await whyBoxesAlone();
  if (!note.isConnected) return;
  if (why !== null) {
    note.textContent = why;
    return;
  }
  const visible = template.result.slides.filter((slide) => !slide.hidden).length;
  const button = el(
    'button',
    { type: 'button', id: 'draw-pictures' },
    `Draw the slides under the boxes (${visible} slide${visible === 1 ? '' : 's'} of the allowance, as a render)`,
  );
  button.addEventListener('click', draw);
  replaceChildren(note, 'Boxes alone. ', button);
}
