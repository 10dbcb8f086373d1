/**
 * The JSON Schema of the `jsonData` one template accepts (docs/mcp.md, "describe_template"): the payload's own
 * schema (src/engine/payload/, published at /openapi.json) with `presentation.template` naming this template, and
 * each slide entry one of this template's slides (or layouts) by `slide_index`, its shapes' names an `enum` of
 * what that slide has. Everything else about a slide and a shape is the payload's schema as it is.
 */
import { payloadJsonSchema, type InspectedShape, type InspectResult } from '../engine/index.js';
import type { TemplateSummary } from './tool-backend.js';

type Schema = Record<string, unknown>;

const SLIDE = { $ref: '#/$defs/Slide' };
const SHAPE = { $ref: '#/$defs/Shape' };

export function templateJsonSchema(template: TemplateSummary, inspect: InspectResult): Schema {
  const schema = structuredClone(payloadJsonSchema) as Schema & { $defs: Record<string, Schema> };
  const presentation = schema.$defs['Presentation'] as Schema & { properties: Record<string, Schema> };
  presentation.properties['template'] = {
    description: `This template: its name (its latest version) or the id of this version`,
    enum: [template.name, template.id],
  };
  presentation.properties['slides'] = {
    ...presentation.properties['slides'],
    items: { $ref: '#/$defs/TemplateSlide' },
  };
  schema.$defs['TemplateSlide'] = {
    description: `A slide of ${template.name}: one of its slides by slide_index, or a new slide from one of its layouts`,
    anyOf: [
      ...inspect.slides.map((slide) =>
        entry(slide.index, slide.shapes, `slide ${slide.index}${slide.hidden ? ' (hidden)' : ''}`, false),
      ),
      ...inspect.layouts.map((layout) => entry(layout.index, layout.shapes, `layout "${layout.name}"`, true)),
      { allOf: [SLIDE], required: ['all_slides'] },
    ],
  };
  schema.$id = `urn:deckforge:schema:json-data:template:${template.id}`;
  schema.title = `Deckforge jsonData for ${template.name}`;
  return schema;
}

function entry(index: number, shapes: readonly InspectedShape[], what: string, layout: boolean): Schema {
  const names = [...new Set(shapes.filter((s) => s.kind !== 'group').map((s) => s.name))];
  const shapeEntry: Schema =
    names.length > 0
      ? { allOf: [SHAPE], properties: { name: { enum: names } } }
      : { allOf: [SHAPE], not: { required: ['name'] } };
  return {
    description: what,
    allOf: [SLIDE],
    properties: {
      type: layout ? { enum: ['layout', 'Layout', 'LAYOUT'] } : { enum: ['slide', 'Slide', 'SLIDE', null] },
      slide_index: { const: index },
      shapes: { type: ['array', 'null'], items: shapeEntry },
    },
    required: layout ? ['type', 'slide_index'] : ['slide_index'],
  };
}
