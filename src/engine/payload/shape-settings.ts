/**
 * A shape's `settings` (docs/payload.md "Shapes" and Charts): geometry in a unit converted to integer EMU,
 * `fill_color`, and the hosted API's chart settings. The hosted API sends `settings` as a one-element array as
 * often as as an object; both are accepted.
 */
import type { ChartSettings, ShapeSettings } from './model.js';
import { colourSpec } from './colour.js';
import { MAX_COORDINATE_EMU, toEmu, unitSpec } from './length-units.js';
import { object } from './object-builder.js';
import { boolean, enumOf, named, number, objectOrSingleton, refuse, string } from './schema-builders.js';

const LEGEND_POSITION: Record<string, NonNullable<ChartSettings['legendPosition']>> = {
  Left: 'l',
  Right: 'r',
  Bottom: 'b',
  Top: 't',
  TopRight: 'tr',
  None: 'none',
};

/** The hosted API's data label positions, mapped to ST_DLblPos. */
const DATA_LABEL_POSITION: Record<string, string> = {
  BestFit: 'bestFit',
  Bottom: 'b',
  Center: 'ctr',
  InsideBase: 'inBase',
  InsideEnd: 'inEnd',
  Left: 'l',
  OutsideEnd: 'outEnd',
  Right: 'r',
  Top: 't',
};

const fontSizePt = number({ min: 1, max: 4000 });
const text = string();

/** The chart keys of `settings`, by their hosted API names. */
const chartFields = {
  title: text,
  chartFont: string({ minLength: 1 }),
  chartFontSize: fontSizePt,
  chartShowLegend: boolean(),
  chartLegendPosition: enumOf(LEGEND_POSITION),
  chartLegendFontColor: colourSpec,
  chartLegendColor: colourSpec,
  isChartLegendBold: boolean(),
  isChartLabelValueVisible: boolean(),
  chartDataLabelPosition: enumOf(DATA_LABEL_POSITION),
  chartDataLabelFontSize: fontSizePt,
  chartDataLabelFont: string({ minLength: 1 }),
  number_format: string({ minLength: 1 }),
  category_axis_title: text,
  value_axis_title: text,
};

const geometry = ['left', 'top', 'width', 'height'] as const;

export const settingsSpec = named(
  'ShapeSettings',
  objectOrSingleton(
    object(
      'a settings object',
      {
        left: number(),
        top: number(),
        width: number({ min: 0 }),
        height: number({ min: 0 }),
        unit: unitSpec,
        fill_color: colourSpec,
        ...chartFields,
      },
      (f, ctx) => {
        const settings: ShapeSettings = {};
        const unit = f.unit ?? 'pt';
        for (const key of geometry) {
          const v = f[key];
          if (v === undefined) continue;
          const emu = toEmu(v, unit);
          if (Math.abs(emu) > MAX_COORDINATE_EMU) {
            refuse(ctx, `expected a coordinate within ±${MAX_COORDINATE_EMU} EMU, got ${v} ${unit}`, key);
          }
          settings[key] = emu;
        }
        if (f.fill_color !== undefined) settings.fillColor = f.fill_color;
        const chart: ChartSettings = {};
        if (f.title !== undefined) chart.title = f.title;
        if (f.chartFont !== undefined) chart.font = f.chartFont;
        if (f.chartFontSize !== undefined) chart.fontSizePt = f.chartFontSize;
        if (f.chartShowLegend !== undefined) chart.showLegend = f.chartShowLegend;
        if (f.chartLegendPosition !== undefined) chart.legendPosition = f.chartLegendPosition;
        const legendColour = f.chartLegendFontColor ?? f.chartLegendColor;
        if (legendColour !== undefined) chart.legendFontColor = legendColour;
        if (f.isChartLegendBold !== undefined) chart.legendBold = f.isChartLegendBold;
        if (f.isChartLabelValueVisible !== undefined) chart.showValueLabels = f.isChartLabelValueVisible;
        if (f.chartDataLabelPosition !== undefined) chart.dataLabelPosition = f.chartDataLabelPosition;
        if (f.chartDataLabelFontSize !== undefined) chart.dataLabelFontSizePt = f.chartDataLabelFontSize;
        if (f.chartDataLabelFont !== undefined) chart.dataLabelFont = f.chartDataLabelFont;
        if (f.number_format !== undefined) chart.numberFormat = f.number_format;
        if (f.category_axis_title !== undefined) chart.categoryAxisTitle = f.category_axis_title;
        if (f.value_axis_title !== undefined) chart.valueAxisTitle = f.value_axis_title;
        if (Object.keys(chart).length > 0) settings.chart = chart;
        return settings;
      },
      { exclusive: [['chartLegendFontColor', 'chartLegendColor']] },
    ),
  ),
  'Geometry (left, top, width, height in `unit`, default pt), fill_color, and chart settings (hosted API names).',
);
