/** Usage tab: queries per day (inline SVG bars), cache hits, limits, unanswered questions, answers visitors found unhelpful. */
import type { UsageReport } from '../../sdk/management.js';
import { api } from './api.js';
import { errorText, formatDate, h, svg, toast } from './dom.js';
import type { TabContext } from './kb.js';
import { addRecordButton, addSynonymButton, askedAfterNote, tryInPlaygroundButton, unknownWordsNote } from './unanswered-actions.js';

const days = 30;

/** Every day of the window, oldest first, with zeros where nothing happened. */
function fillDays(report: UsageReport): UsageReport['days'] {
  const byDay = new Map(report.days.map((d) => [d.day, d]));
  const out: UsageReport['days'] = [];
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  for (let i = days - 1; i >= 0; i--) {
    const day = new Date(today - i * 86_400_000).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, queries: 0, cacheHits: 0, unanswered: 0, helpful: 0, unhelpful: 0 });
  }
  return out;
}

/** Bars in an SVG that stretches to its box (no text inside, so nothing distorts); labels are HTML around it. */
function chart(series: UsageReport['days']): HTMLElement {
  const width = series.length * 10;
  const height = 100;
  const max = Math.max(1, ...series.map((d) => d.queries));
  const total = series.reduce((s, d) => s + d.queries, 0);
  const scale = (v: number) => (height * v) / max;
  const bars = svg(
    'svg',
    {
      class: 'chart',
      viewBox: `0 0 ${width} ${height}`,
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': `Queries per day over the last ${days} days: ${total} in total, at most ${total ? max : 0} in one day.`,
    },
    series.map((d, i) => {
      const hQueries = scale(d.queries);
      const hCached = scale(Math.min(d.cacheHits, d.queries));
      return svg(
        'g',
        {},
        svg('title', {}, `${d.day}: ${d.queries} queries, ${d.cacheHits} from cache, ${d.unanswered} unanswered`),
        svg('rect', { class: 'bar', x: i * 10 + 1.5, y: height - hQueries, width: 7, height: hQueries }),
        hCached > 0 ? svg('rect', { class: 'bar-cached', x: i * 10 + 1.5, y: height - hCached, width: 7, height: hCached }) : null,
      );
    }),
  );
  const label = (i: number) => (series[i]?.day ?? '').slice(5);
  return h(
    'div',
    { class: 'chart-wrap' },
    h('div', { class: 'chart-y', 'aria-hidden': 'true' }, h('span', {}, String(total ? max : 0)), h('span', {}, '0')),
    bars,
    h('div', { class: 'chart-x', 'aria-hidden': 'true' }, h('span', {}, label(0)), h('span', {}, label(Math.floor(series.length / 2))), h('span', {}, label(series.length - 1))),
  );
}

type Feedback = UsageReport['feedback'][number];

/** "2 × not helpful, 1 × helpful · last <date>", dated as the unanswered questions are. */
function feedbackCounts(f: Feedback): HTMLElement {
  return h('p', { class: 'muted small' }, `${f.unhelpful} × not helpful, ${f.helpful} × helpful · last ${formatDate(f.lastAt)}`);
}

/** "Answered from: title (source), source", the records the answer cited; null when none is left. */
function citedRecords(records: Feedback['records']): HTMLElement | null {
  if (records.length === 0) return null;
  const names = records.map((r) => (r.title === null ? r.sourceName : `${r.title} (${r.sourceName})`));
  return h('p', { class: 'small', 'data-testid': 'cited-records' }, `Answered from: ${names.join(', ')}`);
}

interface QuestionListOptions<T> {
  testId: string;
  items: T[];
  /** Shown when there are none (left). */
  empty: string;
  dismissLabel: (item: T) => string;
  /** Takes the item off the server's list. */
  dismiss: (item: T) => Promise<void>;
  /** The item's parts, given its Dismiss button. */
  item: (item: T, dismiss: HTMLElement) => HTMLElement[];
}

/** One of the report's lists of questions, each with a Dismiss button that takes it off the server's list and this one. */
function questionList<T>(options: QuestionListOptions<T>): HTMLElement {
  const list = h('ul', { class: 'list', 'data-testid': options.testId });
  let items = options.items;
  const render = (): void => {
    if (!items.length) {
      list.replaceChildren(h('li', { class: 'muted' }, options.empty));
      return;
    }
    list.replaceChildren(
      ...items.map((item) => {
        const dismiss = h('button', { type: 'button', class: 'secondary small', 'aria-label': options.dismissLabel(item) }, 'Dismiss');
        dismiss.addEventListener('click', async () => {
          try {
            await options.dismiss(item);
            items = items.filter((x) => x !== item);
            render();
            toast('Dismissed.');
          } catch (e) {
            toast(errorText(e));
          }
        });
        return h('li', {}, ...options.item(item, dismiss));
      }),
    );
  };
  render();
  return list;
}

export async function usageTab(panel: HTMLElement, ctx: TabContext): Promise<void> {
  const ragId = ctx.kb.ragId;
  const report = await api.usage(ragId, days);
  const series = fillDays(report);
  const { totals, limits } = report;
  const hitRate = totals.queries ? Math.round((totals.cacheHits / totals.queries) * 100) : 0;
  const stat = (label: string, value: string, note?: string) =>
    h('div', { class: 'stat' }, h('span', { class: 'muted small' }, label), h('span', { class: 'value' }, value), note ? h('span', { class: 'muted small' }, note) : null);

  const unansweredList = questionList({
    testId: 'unanswered',
    items: report.unanswered,
    empty: 'No unanswered questions. When visitors ask something your records do not cover, it appears here.',
    dismissLabel: (u) => `Dismiss “${u.question}”`,
    dismiss: (u) => api.dismissUnanswered(ragId, u.question, u.askedAfter),
    item: (u, dismiss) => {
      const add = addRecordButton(ctx, u.question, undefined, u.askedAfter);
      // The words no record uses: a synonym of one of the records' words may be all it needs.
      const unknown = unknownWordsNote(u.unknownWords);
      const synonym = addSynonymButton(ctx, u.unknownWords[0]);
      // Asked again as the report was read: a record or synonym added since answers it.
      const answered = u.answeredNow ? h('p', { class: 'small' }, h('span', { class: 'badge ok' }, 'Answered now'), ' Your records answer it now: dismiss it.') : null;
      return [
        h(
          'div',
          { class: 'body' },
          h('p', {}, h('strong', {}, u.question)),
          askedAfterNote(u.askedAfter),
          answered,
          unknown,
          h('p', { class: 'muted small' }, `Asked ${u.count}× · last ${formatDate(u.lastAskedAt)}`),
        ),
        // Asked there as the visitor asked it (a follow-up after its earlier questions): the refusal's words and suggestions show.
        h('div', { class: 'row' }, add, synonym, tryInPlaygroundButton(ctx, u.question, u.askedAfter), dismiss),
      ];
    },
  });

  const feedbackList = questionList({
    testId: 'feedback',
    items: report.feedback,
    empty: 'No unhelpful answers reported. When a visitor marks an answer as not helpful, it appears here.',
    dismissLabel: (f) => `Dismiss feedback on “${f.question}”`,
    dismiss: (f) => api.dismissFeedback(ragId, f.question, f.askedAfter),
    item: (f, dismiss) => [
      h('div', { class: 'body' }, h('p', {}, h('strong', {}, f.question)), askedAfterNote(f.askedAfter), feedbackCounts(f), citedRecords(f.records)),
      h(
        'div',
        { class: 'row' },
        tryInPlaygroundButton(ctx, f.question, f.askedAfter),
        addRecordButton(ctx, f.question, 'Better answers to visitors’ questions', f.askedAfter),
        dismiss,
      ),
    ],
  });

  const table = h(
    'details',
    {},
    h('summary', {}, 'Show as a table'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, ['Day', 'Queries', 'From cache', 'Unanswered', 'Helpful', 'Not helpful'].map((t) => h('th', { scope: 'col' }, t)))),
        h(
          'tbody',
          {},
          series
            .filter((d) => d.queries || d.unanswered || d.helpful || d.unhelpful)
            .map((d) => h('tr', {}, ...[d.day, d.queries, d.cacheHits, d.unanswered, d.helpful, d.unhelpful].map((cell) => h('td', {}, cell)))),
        ),
      ),
    ),
  );

  panel.append(
    h(
      'div',
      { class: 'stats' },
      stat(`Queries (${days} days)`, String(totals.queries)),
      stat('Cache hits', String(totals.cacheHits), `${hitRate}% of queries`),
      stat('Unanswered', String(totals.unanswered)),
      stat('Helpful', String(totals.helpful), 'visitors’ feedback'),
      stat('Not helpful', String(totals.unhelpful), 'visitors’ feedback'),
      stat('Limits', `${limits.queriesPerMinute || '∞'}/min`, `${limits.queriesPerDay || 'no'} per day (UTC)`),
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'u-chart' },
      h('h2', { id: 'u-chart' }, 'Queries per day'),
      h('div', { class: 'legend', 'aria-hidden': 'true' }, h('span', {}, 'Queries'), h('span', { class: 'cached' }, 'From cache')),
      chart(series),
      table,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'u-unanswered' },
      h('h2', { id: 'u-unanswered' }, 'Unanswered questions'),
      h('p', { class: 'muted small' }, 'Questions your records did not answer. Add a record and the next visitor gets an answer.'),
      unansweredList,
    ),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'u-feedback' },
      h('h2', { id: 'u-feedback' }, 'Answers visitors found unhelpful'),
      h('p', { class: 'muted small' }, 'Visitors marked these answers as not helpful in the chat widget. Improve the record that answered, or add one.'),
      feedbackList,
    ),
  );
}
