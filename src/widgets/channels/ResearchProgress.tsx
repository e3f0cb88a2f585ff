// Deep research progress (DESIGN §4): the plan's sub-questions, where the run is now, and every
// step so far. Built from the answer's `research_step` steps (stored and streamed alike).
import type { AnswerStep } from '../../contract/channel';
import { useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';

addStrings('research', {
  zh: {
    title: '深度研究',
    duration: '深度研究约需 10–20 分钟，可以离开页面，稍后回来查看',
    progress: '第 {{current}} / {{total}} 步',
    now: '正在进行：{{title}}',
    plan: '研究计划',
    steps: '全部步骤（{{count}}）',
    done: '已检索',
    current: '检索中',
    pending: '待检索',
  },
  en: {
    title: 'Deep research',
    duration: 'Deep research takes about 10–20 minutes; you can leave and come back later',
    progress: 'Step {{current}} of {{total}}',
    now: 'Now: {{title}}',
    plan: 'Research plan',
    steps: 'All steps ({{count}})',
    done: 'searched',
    current: 'searching',
    pending: 'to search',
  },
});

type ResearchStep = Extract<AnswerStep, { type: 'research_step' }>;
type OtherStep = Exclude<AnswerStep, { type: 'research_step' }>;

/** The steps shown in the plain step list (research steps have their own panel). */
export const otherSteps = (steps: AnswerStep[]) => steps.filter((s): s is OtherStep => s.type !== 'research_step');

export function ResearchProgress({ steps, live }: { steps: AnswerStep[]; live: boolean }) {
  const t = useT('research');
  const research = steps.filter((s): s is ResearchStep => s.type === 'research_step');
  if (!research.length) return null;
  const latest = research.at(-1)!;
  const progress = research.findLast((s) => s.progress)?.progress;
  // The plan's sub-questions, then those each follow-up round added (searched in that order).
  const plan = research.flatMap((s) => s.plan ?? []);
  const searched = new Set(research.flatMap((s) => (s.step === 'search' && s.index ? [s.index] : [])));
  const next = plan.findIndex((_, i) => !searched.has(i + 1));
  const state = (i: number) => (searched.has(i + 1) ? 'done' : live && i === next ? 'current' : 'pending');
  const mark = { done: '✓', current: '…', pending: '○' };

  return (
    <section part="research" aria-label={t('title')} className="flex flex-col gap-1 rounded-csai border border-line px-3 py-2 text-xs text-muted">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <strong className="text-sm text-ink">{t('title')}</strong>
        {progress && (
          <span part="research-progress" className="tabular-nums">
            {t('progress', progress)}
          </span>
        )}
      </div>
      {progress && <progress part="research-bar" className="w-full h-1" max={progress.total} value={progress.current} aria-label={t('progress', progress)} />}
      {live && (
        <p part="research-current" role="status" className="m-0 text-ink">
          {t('now', { title: latest.title })}
          {latest.detail ? `：${latest.detail}` : ''}
        </p>
      )}
      {live && <p className="m-0">{t('duration')}</p>}
      {plan.length > 0 && (
        <div>
          <p className="m-0 font-semibold text-ink">{t('plan')}</p>
          <ol part="research-plan" aria-label={t('plan')} className="m-0 pl-5">
            {plan.map((q, i) => (
              <li key={i} part="research-sub-question" data-state={state(i)} aria-current={state(i) === 'current' ? 'step' : undefined} className={state(i) === 'current' ? 'text-ink font-semibold' : ''}>
                <span aria-hidden="true" title={t(state(i))}>
                  {mark[state(i)]}
                </span>{' '}
                <span className="sr-only">{t(state(i))}：</span>
                {q}
              </li>
            ))}
          </ol>
        </div>
      )}
      <details part="research-steps">
        <summary className="cursor-pointer">{t('steps', { count: research.length })}</summary>
        <ol className="m-0 pl-5">
          {research.map((s, i) => (
            <li key={i} part="research-step" data-step={s.step}>
              {s.title}
              {s.detail ? `：${s.detail}` : ''}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}
