import { createElement, Fragment, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { createPortal } from 'react-dom';
import { isWebCitation, type AnswerStep, type Channel, type Question, type WebCitation } from '../../contract/channel';
import type { CodeExecutionResult } from '../../contract/code';
import { smilesInText } from '../../contract/smiles';
import { createChannelApi, type ChannelApi } from '../../core/channel-api';
import { createChannelsModel, type ChannelsModel } from '../../core/channels-model';
import { createKnowledgeApi } from '../../core/knowledge-api';
import { toastStore } from '../../core/toast';
import '../ask/ask.element';
import type { CommonProps } from '../shared/element';
import { useApi, useHost, useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { reactView } from '../shared/react-view';
import { isSameOrigin, openProductPage } from '../shared/site';
import { InlineToasts } from '../shared/Toasts';
import { isLiveAnswer as isLive, type AnswerState } from '../../contract/answer-fold';
import { answerModel } from '../../core/answer-model';
import { useSignalValue } from '../shared/use-signal';
import { channelTime } from './channel-time';
import { ChannelDocs } from './ChannelDocs';
import { channelsStrings } from './channels.strings';
import { otherSteps, ResearchProgress } from './ResearchProgress';
import { ToolSteps } from './ToolSteps';
import { answerCss } from './answer-css';
import { layoutCss } from './layout-css';

addStrings('channels', channelsStrings);

export interface ChannelsProps extends CommonProps {
  /** The conversation to show. */
  channelId: string | undefined;
  /** `"true"`: the history list starts collapsed (SPEC §2 closeSider). */
  closeSider: string | undefined;
}

type Renderer = typeof import('./markdown');
let rendererPromise: Promise<Renderer> | undefined;
let rendererLoaded = false;
/** The markdown stack loads on first use, in its own chunk. */
const loadRenderer = () =>
  (rendererPromise ??= import('./markdown').then((r) => {
    rendererLoaded = true;
    return r;
  }));

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : '');

/** The notices of an answer (tool calls and results are shown as cards). */
const notices = (steps: AnswerStep[]) => otherSteps(steps).filter((s): s is Extract<AnswerStep, { type: 'notice' }> => s.type === 'notice');

/** Follows one answer (the core's answerModel): the stored state first, then its event stream (the client's) while it is live. */
function useAnswer(q: Question, api: ChannelApi): AnswerState {
  const model = useMemo(() => {
    const m = answerModel(q.question_id);
    m.reset(q);
    return m;
    // A new question object of the same id (a refreshed page of the history) resets below.
  }, [q.question_id]);
  useEffect(() => model.reset(q), [model, q]);
  const state = useSignalValue(model.$state);
  const live = useSignalValue(model.$live);
  useEffect(() => {
    if (!live) return;
    // Start after the stored events; a dropped connection resumes after the newest one.
    const stream = api.answerEvents(q.question_id, q.last_event_id, { onEvent: (event) => model.apply(event) });
    return () => stream.close();
  }, [live, model, q.question_id, q.last_event_id, api]);
  return state;
}

/** The answer text, rendered through the one sanitising path (markdown.ts). */
function AnswerBody({ text, state, onSlots }: { text: string; state: AnswerState; onSlots: (slots: Element[]) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const t = useT('channels');
  const { lang } = useHost();
  useEffect(() => {
    let cancelled = false;
    // Until the markdown chunk has loaded (the first answer on a slow connection), the answer shows
    // as plain text rather than as an empty box under a finished status.
    if (!rendererLoaded && ref.current) {
      ref.current.textContent = text;
      ref.current.dataset.plain = '';
    }
    const frame = requestAnimationFrame(() => {
      void loadRenderer().then((r) => {
        if (cancelled || !ref.current) return;
        delete ref.current.dataset.plain;
        r.renderAnswer(ref.current, text, state.citations, {
          image: (alt) => t('image', { alt }),
          citation: (c) =>
            isWebCitation(c) ? t('citation_web', { title: c.title, site: c.site }) : c.page !== null ? t('citation', { title: c.title, page: c.page }) : t('citation_no_page', { title: c.title }),
        }, lang);
        // A finished answer's Python blocks can be run in the sandbox (POST /code/run), with or without a model.
        // Each block's last run is shown in the place left under it.
        onSlots(isLive(state.status) ? [] : r.addRunButtons(ref.current, t('run_code'), t('run_code_title')));
      });
    });
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
    };
  }, [text, state.citations, state.status, t, onSlots, lang]);
  return <div ref={ref} part="answer" className="csai-answer" aria-live={isLive(state.status) ? 'polite' : undefined} />;
}

/** The last press of "运行" on a code block of an answer: running, its result (kept on the server with the answer), or why it failed. */
interface CodeRunState {
  id: number;
  result?: CodeExecutionResult;
  error?: string;
}

type CodeRunView = typeof import('./tool-cards/CodeCard').CodeRun;
let codeRunView: Promise<CodeRunView> | undefined;

/** The result of a block's 运行, shown under the block. */
function CodeRunCard({ run, block }: { run: CodeRunState; block: number }) {
  const t = useT('channels');
  const [View, setView] = useState<{ component: CodeRunView } | null>(null);
  useEffect(() => {
    if (View) return;
    let cancelled = false;
    void (codeRunView ??= import('./tool-cards/CodeCard').then((m) => m.CodeRun)).then((component) => !cancelled && setView({ component }));
    return () => {
      cancelled = true;
    };
  }, [View]);
  return (
    <section part="code-runs" aria-label={t('run_results')} data-block={block} className="flex flex-col gap-2 mb-2">
      <div part="tool-card" data-tool="code_execution" data-state={run.error ? 'failed' : run.result ? 'ok' : 'running'} className="rounded-csai border border-line bg-surface p-3 flex flex-col gap-2">
        <header className={`text-xs font-semibold ${run.error ? 'text-danger' : 'text-muted'}`}>{run.error ? t('run_failed') : run.result ? t('run_results') : t('run_running')}</header>
        {run.error && <p part="tool-error" role="alert" className="m-0 text-sm text-danger">{run.error}</p>}
        {run.result && View && <View.component out={run.result} />}
      </div>
    </section>
  );
}

/** The online results the answer cites (web pages, papers, patents): number, title and site, each opening in a new tab. */
function WebSources({ citations }: { citations: WebCitation[] }) {
  const t = useT('channels');
  if (!citations.length) return null;
  return (
    <section part="web-sources" aria-label={t('web_sources')} className="flex flex-col gap-0.5 text-xs">
      <span className="text-muted">{t('web_sources')}</span>
      <ol className="m-0 list-none p-0 flex flex-col gap-0.5">
        {citations.map((c) => (
          <li key={c.n} part="web-source" data-kind={c.kind}>
            <span className="text-muted">[{c.n}] </span>
            <a href={c.url} target="_blank" rel="noopener noreferrer" title={c.snippet} className="text-accent">
              {c.title || c.url}
            </a>
            <span part="web-source-site" className="text-muted">
              {' · '}
              {c.site}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Structures written in the question (e.g. inserted from the chemical editor), drawn below it. */
function QuestionStructures({ question }: { question: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const t = useT('channels');
  const { lang } = useHost();
  const smiles = useMemo(() => smilesInText(question, 5), [question]);
  useEffect(() => {
    if (!smiles.length) return;
    let cancelled = false;
    void loadRenderer().then((r) => {
      if (!cancelled && ref.current) r.renderMolecules(ref.current, smiles, lang);
    });
    return () => {
      cancelled = true;
    };
  }, [smiles, lang]);
  if (!smiles.length) return null;
  return <div ref={ref} part="question-structures" role="group" aria-label={t('question_structures')} className="self-end flex flex-wrap justify-end gap-2 max-w-full" />;
}

function QuestionView({ q, api, onDeleted }: { q: Question; api: ChannelApi; onDeleted: (id: string) => void }) {
  const { host, apiOrigin } = useHost();
  const t = useT('channels');
  const state = useAnswer(q, api);
  const [effect, setEffect] = useState(q.effect);
  const [confirming, setConfirming] = useState(false);
  const toasts = toastStore();

  const fail = (error: unknown) => toasts.toast({ variant: 'destructive', title: t('failed_action'), description: messageOf(error) || t('retry_later') });
  const setFeedback = async (wanted: 'like' | 'dislike') => {
    const next = effect === wanted ? 'clear' : wanted;
    try {
      const res = await api.setEffect(q.question_id, next);
      setEffect(res.effect);
    } catch (error) {
      fail(error);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(state.answer);
      toasts.toast({ title: t('copied') });
    } catch {
      toasts.toast({ variant: 'destructive', title: t('copy_failed') });
    }
  };
  const stop = async () => {
    try {
      await api.stopQuestion(q.question_id);
    } catch (error) {
      fail(error);
    }
  };
  const remove = async () => {
    try {
      await api.deleteQuestion(q.question_id);
      onDeleted(q.question_id);
    } catch (error) {
      fail(error);
    }
  };
  // The last run of each Python block (by its index), starting from those the server kept with the answer.
  const [runs, setRuns] = useState<ReadonlyMap<number, CodeRunState>>(() => new Map((q.code_runs ?? []).map((r) => [r.block, { id: 0, result: r.result }])));
  const [slots, setSlots] = useState<Element[]>([]);
  const runCode = async (button: Element) => {
    const code = button.previousElementSibling?.textContent ?? '';
    const block = Number(button.getAttribute('data-run-code'));
    if (!Number.isInteger(block) || block < 0) return;
    const id = Date.now() + Math.random();
    setRuns((rs) => new Map(rs).set(block, { id }));
    // A later press of the same block wins; an earlier one finishing late changes nothing.
    const settle = (patch: Partial<CodeRunState>) => setRuns((rs) => (rs.get(block)?.id === id ? new Map(rs).set(block, { id, ...patch }) : rs));
    try {
      const docIds = [...new Set([...q.docIdList, ...q.docIdListKnowledge])].slice(0, 6);
      settle({ result: await api.runCode({ code, docIds, questionId: q.question_id, block }) });
    } catch (error) {
      settle({ error: messageOf(error) || t('retry_later') });
    }
  };
  const onAnswerClick = (e: MouseEvent<HTMLDivElement>) => {
    const run = e.target instanceof Element ? e.target.closest('[data-run-code]') : null;
    if (run) {
      e.preventDefault();
      void runCode(run);
      return;
    }
    const target = e.target instanceof Element ? e.target.closest('a[data-cite]') : null;
    if (!target) return;
    e.preventDefault();
    openProductPage(host, apiOrigin, target.getAttribute('href') ?? '/');
  };
  const button = 'cursor-pointer rounded-csai border border-line bg-surface text-ink px-2 py-0.5 text-xs';
  const live = isLive(state.status);

  return (
    <article part="question" data-status={state.status} data-question-id={q.question_id} className="flex flex-col gap-2 border-b border-line pb-4">
      <div part="question-text" className="self-end max-w-full rounded-csai bg-line px-3 py-2 whitespace-pre-wrap" aria-label={t('question_label')}>
        {q.question}
      </div>
      <QuestionStructures question={q.question} />
      {state.status === 'queued' && (
        <p part="queued" role="status" className="m-0 text-xs text-warning">
          {t('queued')}
        </p>
      )}
      {state.status === 'running' && (
        <p part="running" role="status" className="m-0 text-xs text-muted">
          {t('running')}
        </p>
      )}
      {state.thinking && (
        <details part="thinking" className="text-xs text-muted" open={live && !state.answer}>
          <summary className="cursor-pointer">{t('thinking')}</summary>
          <div className="whitespace-pre-wrap border-l-2 border-line pl-2">{state.thinking}</div>
        </details>
      )}
      <ResearchProgress steps={state.steps} live={live} />
      {notices(state.steps).length > 0 && (
        <ol part="steps" aria-label={t('steps')} className="m-0 pl-4 text-xs text-muted">
          {notices(state.steps).map((s, i) => (
            <li key={i} part="step" data-type={s.type}>
              {s.message}
            </li>
          ))}
        </ol>
      )}
      <ToolSteps steps={state.steps} />
      <div role="group" onClick={onAnswerClick} aria-label={t('answer_label')}>
        <AnswerBody text={state.answer} state={state} onSlots={setSlots} />
      </div>
      {slots.map((slot, block) => {
        const run = runs.get(block);
        return run ? <Fragment key={block}>{createPortal(<CodeRunCard run={run} block={block} />, slot)}</Fragment> : null;
      })}
      <WebSources citations={state.citations.filter(isWebCitation)} />
      {state.status === 'stopped' && <p part="stopped" className="m-0 text-xs text-muted">{t('stopped')}</p>}
      {state.status === 'failed' && (
        <p part="failed" role="alert" className="m-0 text-xs text-danger">
          {t('failed')}
          {state.error ? `：${state.error}` : ''}
        </p>
      )}
      <div part="actions" className="flex flex-wrap gap-2">
        {live ? (
          <button type="button" part="stop" className={`${button} text-danger border-danger`} onClick={() => void stop()}>
            {t('stop')}
          </button>
        ) : (
          <>
            <button type="button" part="like" aria-pressed={effect === 'like'} className={`${button} ${effect === 'like' ? 'border-accent text-accent' : ''}`} onClick={() => void setFeedback('like')}>
              {t('like')}
            </button>
            <button type="button" part="dislike" aria-pressed={effect === 'dislike'} className={`${button} ${effect === 'dislike' ? 'border-accent text-accent' : ''}`} onClick={() => void setFeedback('dislike')}>
              {t('dislike')}
            </button>
            <button type="button" part="copy" className={button} onClick={() => void copy()}>
              {t('copy')}
            </button>
          </>
        )}
        {confirming ? (
          <span part="confirm" role="group" className="inline-flex items-center gap-2 text-xs">
            {t('confirm_delete_question')}
            <button type="button" className={`${button} text-danger border-danger`} onClick={() => void remove()}>
              {t('confirm')}
            </button>
            <button type="button" className={button} onClick={() => setConfirming(false)}>
              {t('cancel')}
            </button>
          </span>
        ) : (
          <button type="button" part="delete" className={button} onClick={() => setConfirming(true)}>
            {t('delete')}
          </button>
        )}
      </div>
    </article>
  );
}

function HistoryItem({ item, active, api, onOpen, onChanged }: { item: Channel; active: boolean; api: ChannelApi; onOpen: (id: string) => void; onChanged: (deleted?: boolean) => void }) {
  const t = useT('channels');
  const [mode, setMode] = useState<'view' | 'rename' | 'confirm'>('view');
  const [name, setName] = useState(item.name);
  const toasts = toastStore();
  const time = channelTime(item.updated_at, t);
  const button = 'cursor-pointer rounded-csai border border-line bg-surface text-ink px-1.5 py-0.5 text-xs';
  const save = async (value = name) => {
    try {
      await api.rename(item.id, value);
      setMode('view');
      toasts.toast({ title: t('renamed') });
      onChanged();
    } catch (error) {
      toasts.toast({ variant: 'destructive', title: t('failed_action'), description: messageOf(error) || t('retry_later') });
    }
  };
  const remove = async () => {
    try {
      await api.remove(item.id);
      toasts.toast({ title: t('deleted') });
      onChanged(active);
    } catch (error) {
      toasts.toast({ variant: 'destructive', title: t('failed_action'), description: messageOf(error) || t('retry_later') });
    }
  };
  // Focus the name field when it appears (through a ref: an `autofocus` attribute, which a
  // browser honours once per page, not for a field inserted later).
  const focusField = useCallback((field: HTMLInputElement | null) => field?.focus(), []);
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // The field's own value: an input event earlier in the same task may not have re-rendered yet.
    if (e.key === 'Enter' && !e.nativeEvent.isComposing) void save(e.currentTarget.value);
    if (e.key === 'Escape') setMode('view');
  };
  return (
    <li part="channel" data-channel-id={item.id} aria-current={active ? 'true' : undefined} className={`flex flex-col gap-1 rounded-csai px-2 py-1 ${active ? 'bg-line' : ''}`}>
      {mode === 'rename' ? (
        <span className="flex gap-1">
          <input ref={focusField} part="rename-input" aria-label={t('rename_label')} value={name} onChange={(e) => setName(e.target.value)} onKeyDown={onKey} className="flex-1 min-w-0 rounded-csai border border-line bg-surface text-ink px-1 text-sm" />
          <button type="button" className={button} onClick={() => void save()}>
            {t('save')}
          </button>
          <button type="button" className={button} onClick={() => setMode('view')}>
            {t('cancel')}
          </button>
        </span>
      ) : (
        <span className="flex items-baseline gap-2 min-w-0">
          <button type="button" part="channel-name" className="flex-1 min-w-0 text-left truncate bg-transparent border-0 cursor-pointer text-ink text-sm p-0" onClick={() => onOpen(item.id)}>
            {item.name}
          </button>
          {time && (
            <time part="channel-time" dateTime={time.iso} title={time.full} className="shrink-0 text-xs text-muted">
              {time.label}
            </time>
          )}
        </span>
      )}
      {mode === 'confirm' ? (
        <span part="confirm" role="group" className="flex flex-wrap items-center gap-1 text-xs">
          {t('confirm_delete_channel', { name: item.name })}
          <button type="button" className={`${button} text-danger border-danger`} onClick={() => void remove()}>
            {t('confirm')}
          </button>
          <button type="button" className={button} onClick={() => setMode('view')}>
            {t('cancel')}
          </button>
        </span>
      ) : (
        mode === 'view' && (
          <span className="flex gap-1">
            <button type="button" part="rename" aria-label={`${t('rename')} ${item.name}`} className={button} onClick={() => { setName(item.name); setMode('rename'); }}>
              {t('rename')}
            </button>
            <button type="button" part="delete-channel" aria-label={`${t('delete')} ${item.name}`} className={button} onClick={() => setMode('confirm')}>
              {t('delete')}
            </button>
          </span>
        )
      )}
    </li>
  );
}

/** The element's conversations model over its API client, loading from the first render and stopped when it goes. */
function useChannelsModel(channelId: string): { model: ChannelsModel; api: ChannelApi } {
  const client = useApi();
  const api = useMemo(() => createChannelApi(client), [client]);
  // Created with the conversation of the first render (later attributes go through `open`).
  const model = useMemo(() => createChannelsModel({ api, knowledge: createKnowledgeApi(client) }, channelId), [api, client]);
  useEffect(() => {
    model.start();
    return () => model.dispose();
  }, [model]);
  return { model, api };
}

/** Conversation history and one conversation (SPEC §2 /channels). */
export function Channels({ channelId, closeSider }: ChannelsProps) {
  const { host, root, apiOrigin, theme, lang, accent, radius } = useHost();
  const t = useT('channels');
  const { model, api } = useChannelsModel(channelId ?? '');
  const current = useSignalValue(model.$current);
  const search = useSignalValue(model.$search);
  const page = useSignalValue(model.$page);
  const list = useSignalValue(model.$list);
  const questions = useSignalValue(model.$questions);
  const pages = useSignalValue(model.$pages);
  const currentName = useSignalValue(model.$currentName);
  const [siderOpen, setSiderOpen] = useState(closeSider !== 'true');
  const askRef = useRef<HTMLElement>(null);

  // Attribute changes reset the view during render (not in an effect, which could run after a click).
  const [seen, setSeen] = useState({ closeSider });
  if (seen.closeSider !== closeSider) {
    setSeen({ closeSider });
    setSiderOpen(closeSider !== 'true');
  }
  // A new `channel-id` opens its conversation before the browser paints (and so before any click).
  useLayoutEffect(() => model.open(channelId ?? ''), [model, channelId]);

  // Answer typography and the card's layout: one constructable sheet next to the twind ones (CSP-safe).
  useEffect(() => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(answerCss + layoutCss);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return () => {
      root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => s !== sheet);
    };
  }, [root]);

  // A follow-up asked in this conversation: show it (and its stream) at once; SPEC §4 closeSider.
  useEffect(() => {
    const ask = askRef.current;
    if (!ask) return;
    const onSubmitted = (e: Event) => {
      if (!(e instanceof CustomEvent)) return;
      setSiderOpen(false);
      model.reloadConversation();
      model.reloadList();
    };
    ask.addEventListener('csai-submitted', onSubmitted);
    return () => ask.removeEventListener('csai-submitted', onSubmitted);
  }, [model, current]);
  // A question asked by another <csai-ask> on the same page: the history (and this conversation,
  // when it went here) shows it without a reload. The listener leaves with the element.
  useEffect(() => {
    const onElsewhere = (e: Event) => {
      if (!(e instanceof CustomEvent) || (askRef.current && e.composedPath().includes(askRef.current))) return;
      const detail: unknown = e.detail;
      model.reloadList();
      if (typeof detail === 'object' && detail !== null && 'channelId' in detail && detail.channelId === current) model.reloadConversation();
    };
    document.addEventListener('csai-submitted', onElsewhere);
    return () => document.removeEventListener('csai-submitted', onElsewhere);
  }, [model, current]);

  const open = useCallback(
    (id: string) => {
      model.open(id);
      if (isSameOrigin(apiOrigin)) openProductPage(host, apiOrigin, `/channels?channel_id=${encodeURIComponent(id)}`);
    },
    [model, apiOrigin, host],
  );

  const button = 'cursor-pointer rounded-csai border border-line bg-surface text-ink px-2 py-0.5 text-xs disabled:opacity-50 disabled:cursor-not-allowed';
  const common: Record<string, string> = {};
  for (const [k, v] of Object.entries({ 'api-base': apiOrigin || undefined, theme, lang, accent, radius })) if (v) common[k] = v;

  return (
    <div part="base" className="font-csai rounded-csai border border-line bg-surface text-ink min-h-0">
      {siderOpen && (
        <aside part="history" aria-label={t('history')} className="flex flex-col gap-2 shrink-0">
          <input
            part="search"
            type="search"
            aria-label={t('search')}
            placeholder={t('search')}
            value={search}
            onChange={(e) => model.setSearch(e.target.value)}
            className="rounded-csai border border-line bg-surface text-ink px-2 py-1 text-sm"
          />
          {!list ? (
            <p className="m-0 text-xs text-muted">{t('loading')}</p>
          ) : list.items.length === 0 ? (
            <p part="empty" className="m-0 text-xs text-muted">{search.trim() ? t('no_match') : t('no_channels')}</p>
          ) : (
            <ul part="channels" className="list-none m-0 p-0 flex flex-col gap-1">
              {list.items.map((item) => (
                <HistoryItem
                  key={`${item.id}:${item.name}`}
                  item={item}
                  active={item.id === current}
                  api={api}
                  onOpen={open}
                  onChanged={(deletedActive) => model.channelChanged(deletedActive)}
                />
              ))}
            </ul>
          )}
          {pages > 1 && (
            <nav part="pagination" className="flex items-center gap-2 text-xs">
              <button type="button" className={button} disabled={page <= 1} onClick={() => model.goToPage(page - 1)}>
                {t('prev')}
              </button>
              <span>{t('page', { page, pages })}</span>
              <button type="button" className={button} disabled={page >= pages} onClick={() => model.goToPage(page + 1)}>
                {t('next')}
              </button>
            </nav>
          )}
        </aside>
      )}
      <section part="conversation" className="flex flex-col gap-4 flex-1 min-w-0">
        <header className="flex items-center gap-2">
          <button type="button" part="toggle-history" aria-expanded={siderOpen} className={button} onClick={() => setSiderOpen((o) => !o)}>
            {siderOpen ? t('hide_history') : t('show_history')}
          </button>
          {currentName && <h2 part="title" className="m-0 text-base font-semibold truncate">{currentName}</h2>}
        </header>
        {current && <ChannelDocs model={model.documents} />}
        {!current ? (
          <p part="placeholder" className="m-0 text-sm text-muted">{t('pick_channel')}</p>
        ) : !questions ? (
          <p className="m-0 text-sm text-muted">{t('loading')}</p>
        ) : questions.length === 0 ? (
          <p className="m-0 text-sm text-muted">{t('no_questions')}</p>
        ) : (
          questions.map((q) => <QuestionView key={q.question_id} q={q} api={api} onDeleted={(id) => model.questionDeleted(id)} />)
        )}
        {createElement('csai-ask', { ref: askRef, key: current || 'new', ...common, ...(current ? { 'channel-id': current, navigate: 'false' } : {}) })}
        {!isSameOrigin(apiOrigin) && <InlineToasts label={t('notice')} closeLabel={t('close')} />}
      </section>
    </div>
  );
}

/** The view the element imports on first connection. */
export const view = reactView<ChannelsProps>(Channels);
