/** Plan, slides used of allowed (with a bar), reset date, API calls, the previous period and the per-day chart. */
import { getJson } from '../console-api.js';
import { formatCount, formatDay, slideAllowance } from '../display-format.js';
import { el } from '../dom-builder.js';
import { drawUsageChart, type DaySlides } from '../usage-chart.js';

/** Horizontal room around the chart: the page's margins and the card's padding, both sides (console.css). */
const CHART_MARGINS = 64;

interface ApiCalls {
  total: number;
  successful: number;
  failed: number;
}

interface UsageBody {
  plan?: string;
  usedSlideCount?: number;
  allowedSlideCount?: number;
  resetDate?: string;
  totalApiCallCount?: number;
  successfulApiCallCount?: number;
  failedApiCallCount?: number;
  previousMonthUsedSlideCount?: number;
  apiCalls?: ApiCalls;
  previousPeriod?: { start: string; end: string; usedSlideCount: number; apiCalls?: ApiCalls };
  perDay?: DaySlides[];
}

export async function renderUsage(main: HTMLElement): Promise<void> {
  const answer = await getJson<UsageBody & { result?: UsageBody }>('/console/api/usage');
  // The /v1.0/usage fields may come wrapped in `result`, as that endpoint sends them; the console's own beside them.
  const usage: UsageBody = { ...(answer.result ?? {}), ...answer };
  const used = usage.usedSlideCount ?? 0;
  const allowed = usage.allowedSlideCount ?? 0;
  const calls: ApiCalls = usage.apiCalls ?? {
    total: usage.totalApiCallCount ?? 0,
    successful: usage.successfulApiCallCount ?? 0,
    failed: usage.failedApiCallCount ?? 0,
  };
  const previous = usage.previousPeriod;
  const allowance = slideAllowance(used, allowed);
  // No bar for a plan without a ceiling: an empty bar would say nothing true.
  const meter = allowance.unlimited
    ? null
    : el('progress', {
        id: 'slides-meter',
        max: Math.max(allowed, 1),
        value: Math.min(used, Math.max(allowed, 1)),
      });
  main.append(
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'period-heading' },
      el('h2', { id: 'period-heading' }, 'This period'),
      el(
        'dl',
        { class: 'facts' },
        fact('Plan', usage.plan ?? '—'),
        fact('Resets on', formatDay(usage.resetDate)),
      ),
      meter
        ? el('label', { for: 'slides-meter' }, allowance.text)
        : el('p', { id: 'slides-used' }, allowance.text),
      meter,
      el(
        'dl',
        { class: 'facts' },
        fact('API calls', formatCount(calls.total)),
        fact('Successful', formatCount(calls.successful)),
        fact('Failed', formatCount(calls.failed)),
      ),
    ),
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'per-day-heading' },
      el('h2', { id: 'per-day-heading' }, 'Slides per day'),
      usage.perDay && usage.perDay.length > 0
        ? // The page's width less the margins and the card's padding (console.css), so its labels keep their size.
          drawUsageChart(usage.perDay, document.documentElement.clientWidth - CHART_MARGINS)
        : el('p', { class: 'muted' }, 'No days to show yet.'),
    ),
    el(
      'section',
      { class: 'card', 'aria-labelledby': 'previous-heading' },
      el('h2', { id: 'previous-heading' }, 'Previous period'),
      el(
        'dl',
        { class: 'facts' },
        previous ? fact('From', `${formatDay(previous.start)} to ${formatDay(previous.end)}`) : null,
        fact('Slides used', formatCount(previous?.usedSlideCount ?? usage.previousMonthUsedSlideCount ?? 0)),
        previous?.apiCalls
          ? fact(
              'API calls',
              `${formatCount(previous.apiCalls.total)} (${formatCount(previous.apiCalls.failed)} failed)`,
            )
          : null,
      ),
    ),
  );
}

function fact(term: string, value: string): HTMLElement {
  return el('div', {}, el('dt', {}, term), el('dd', {}, value));
}
