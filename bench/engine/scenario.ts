/**
 * The benchmark scenario of issue 2, shared by every peer: `count` output slides cycling template slides
 * 0, 1, 2 of poi/layouts.pptx, each filling its title and its subtitle/body placeholder with distinct text.
 */
export const TEMPLATE_SLIDES = [
  { index: 0, title: 'Title 1', body: 'Subtitle 2' },
  { index: 1, title: 'Title 1', body: 'Content Placeholder 2' },
  { index: 2, title: 'Title 1', body: 'Text Placeholder 2' },
] as const;

export interface PlannedSlide {
  index: number;
  title: string;
  body: string;
  titleText: string;
  bodyText: string;
}

export function plan(count: number): PlannedSlide[] {
  return Array.from({ length: count }, (_, i) => {
    const t = TEMPLATE_SLIDES[i % TEMPLATE_SLIDES.length]!;
    return {
      index: t.index,
      title: t.title,
      body: t.body,
      titleText: `Slide ${i + 1} title`,
      bodyText: `Body text of slide ${i + 1}`,
    };
  });
}

export function deckforgePayload(count: number): unknown {
  return {
    presentation: {
      template: 'layouts.pptx',
      slides: plan(count).map((s) => ({
        slide_index: s.index,
        shapes: [
          { name: s.title, content: s.titleText },
          { name: s.body, content: s.bodyText },
        ],
      })),
    },
  };
}
