/**
 * Whether the deck uses each font family it embeds: PowerPoint expects every font of `p:embeddedFontLst` to be
 * used in the presentation ([MS-OI29500] 2.1.1100; docs/powerpoint-rules.md "Embedded fonts"). Used means named
 * by a theme change, by a run or chart setting the payload writes, or by a theme, master or layout of a template
 * of the deck (the template's slides are not read for this: they are copied without being inflated). A family
 * used nowhere of these is still embedded, with a warning that says how to use it.
 */
import type { Warning } from '../errors.js';
import type { EmbeddedFamily } from '../fonts/embedded-fonts.js';
import type { DeckRequest, ShapeRequest, TextContent, ThemeChange } from '../payload/model.js';
import { THEME_REL } from './relationship-policy.js';
import type { Template } from './template.js';

export function unusedFontWarnings(
  families: readonly EmbeddedFamily[],
  request: DeckRequest,
  themes: readonly (ThemeChange | undefined)[],
  templates: readonly Template[],
): Warning[] {
  if (families.length === 0) return [];
  const named = namedByPayload(request, themes);
  const warnings: Warning[] = [];
  for (const family of families) {
    const lower = family.typeface.toLowerCase();
    if (named.has(lower) || templates.some((t) => namedByTemplate(t, lower))) continue;
    warnings.push({
      path: family.faces[0]?.path ?? 'presentation.fonts',
      message:
        `font family "${family.typeface}" is embedded, but neither a theme nor a run of the payload names it, ` +
        'nor a master or layout of the template; PowerPoint expects every embedded font to be used: name it in ' +
        "theme.fonts or in a run's font_type (unless the template's slides use it already)",
    });
  }
  return warnings;
}

/** Lower-case family names the payload writes: theme fonts, run fonts, chart fonts. */
function namedByPayload(request: DeckRequest, themes: readonly (ThemeChange | undefined)[]): Set<string> {
  const names = new Set<string>();
  const add = (name: string | undefined): void => {
    if (name) names.add(name.toLowerCase());
  };
  for (const theme of [request.brand.theme ?? undefined, ...themes]) {
    for (const fonts of [theme?.fonts.major, theme?.fonts.minor]) {
      add(fonts?.latin);
      add(fonts?.ea);
      add(fonts?.cs);
    }
  }
  const text = (content: TextContent | null): void => {
    for (const paragraph of content?.paragraphs ?? []) for (const run of paragraph.runs) add(run.props.font);
  };
  const shapes = (list: readonly ShapeRequest[]): void => {
    for (const shape of list) {
      add(shape.settings?.chart?.font);
      add(shape.settings?.chart?.dataLabelFont);
      const content = shape.content;
      if (content?.kind === 'text') text(content);
      else if (content?.kind === 'list') content.items.forEach(text);
      else if (content?.kind === 'table')
        for (const row of content.rows)
          for (const cell of row) {
            add(cell.runProps?.font);
            text(cell.text);
          }
    }
  };
  for (const slide of request.slides) {
    shapes(slide.shapes);
    text(slide.notes);
  }
  for (const page of request.brand.pages) shapes(page.shapes);
  return names;
}

/** Whether a theme, master or layout of the template names the family (`typeface="…"`, any case). */
function namedByTemplate(template: Template, lower: string): boolean {
  const parts = new Set<string>();
  for (const master of template.masters) {
    parts.add(master.partName);
    const theme = template.related(master.partName, THEME_REL);
    if (theme) parts.add(theme);
  }
  for (const layout of template.layouts) parts.add(layout.partName);
  const needle = `typeface="${lower}"`;
  for (const part of parts)
    if (template.pkg.has(part) && template.pkg.text(part).toLowerCase().includes(needle)) return true;
  return false;
}
