// The tools an answer used: each call with its result as a card — the tool's own card
// from `toolCards` (loaded on first use), its text while that loads or when a tool has none, or the
// Chinese message of a failed call. Built from the answer's steps, so live and reloaded answers match.
import { Component, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import type { AnswerStep } from '../../contract/channel';
import { toolName } from '../../contract/tools';
import { useT } from '../shared/host-context';
import { addStrings } from '../shared/i18n';
import { toolCards, type ToolCardProps } from './tool-cards';

addStrings('tools', {
  zh: {
    intelligence_search: '情报数据库检索',
    web_search: '联网搜索',
    page_crawl: '网页抓取',
    admet: 'ADMET计算',
    patent_search: '分子专利检索',
    name_to_smiles: '化学名转SMILES',
    smiles_completion: 'SMILES补全',
    docking_submit: '对接任务提交',
    task_query: '任务查询',
    code_execution: '代码生成与执行',
    running: '{{name}}：运行中…',
    done: '{{name}}',
    failed: '{{name}}：未能完成',
    arguments: '调用参数',
  },
  en: {
    intelligence_search: 'Intelligence database search',
    web_search: 'Web search',
    page_crawl: 'Page crawl',
    admet: 'ADMET calculation',
    patent_search: 'Molecule patent search',
    name_to_smiles: 'Name to SMILES',
    smiles_completion: 'SMILES completion',
    docking_submit: 'Docking submission',
    task_query: 'Task query',
    code_execution: 'Code generation and execution',
    running: '{{name}}: running…',
    done: '{{name}}',
    failed: '{{name}}: could not finish',
    arguments: 'Arguments',
  },
});

type ToolResult = Extract<AnswerStep, { type: 'tool_result' }>;

/** A call and its result (undefined while it runs), in the order the answer made them. */
export interface ToolUse {
  callId: string;
  name: string;
  arguments: string;
  result: ToolResult | undefined;
}

/** Pairs each tool call with its result by call_id; a result without its call stands alone. */
export function toolUses(steps: readonly AnswerStep[]): ToolUse[] {
  const uses: ToolUse[] = [];
  const byId = new Map<string, ToolUse>();
  for (const s of steps) {
    if (s.type === 'tool_call') {
      const use: ToolUse = { callId: s.call_id, name: s.name, arguments: s.arguments, result: undefined };
      uses.push(use);
      byId.set(s.call_id, use);
    } else if (s.type === 'tool_result') {
      const use = byId.get(s.call_id);
      if (use && !use.result) use.result = s;
      else uses.push({ callId: s.call_id, name: s.name, arguments: '', result: s });
    }
  }
  return uses;
}

/** Loads a tool's card once; undefined while loading, when there is none, or when it failed to load. */
function useCard(name: string): ComponentType<ToolCardProps> | undefined {
  const [card, setCard] = useState<{ name: string; component: ComponentType<ToolCardProps> } | undefined>(undefined);
  useEffect(() => {
    const parsed = toolName.safeParse(name);
    const load = parsed.success ? toolCards[parsed.data] : undefined;
    if (!load) return;
    let cancelled = false;
    load().then(
      (component) => !cancelled && setCard({ name, component }),
      () => undefined, // the text stays: a card that cannot load is no reason to lose the result
    );
    return () => {
      cancelled = true;
    };
  }, [name]);
  return card?.name === name ? card.component : undefined;
}

/** A card that throws while rendering falls back to the result's text. */
class CardBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function ToolCard({ use }: { use: ToolUse }) {
  const t = useT('tools');
  const Card = useCard(use.name);
  const label = toolName.safeParse(use.name).success ? t(use.name) : use.name;
  const { result } = use;
  const text = result ? <div part="tool-text" className="whitespace-pre-wrap text-sm text-ink overflow-x-auto">{result.content}</div> : null;
  return (
    <section part="tool-card" data-tool={use.name} data-state={!result ? 'running' : result.ok ? 'ok' : 'failed'} aria-label={label} className="rounded-csai border border-line bg-surface p-3 flex flex-col gap-2">
      <header className={`text-xs font-semibold ${result && !result.ok ? 'text-danger' : 'text-muted'}`}>
        {!result ? t('running', { name: label }) : result.ok ? t('done', { name: label }) : t('failed', { name: label })}
      </header>
      {result && !result.ok && (
        <p part="tool-error" role="alert" className="m-0 text-sm text-danger">
          {result.content}
        </p>
      )}
      {result?.ok && (Card ? (
        <CardBoundary fallback={text}>
          <Card name={use.name} ok={result.ok} content={result.content} data={result.data} />
        </CardBoundary>
      ) : text)}
      {use.arguments && (
        <details className="text-xs text-muted">
          <summary className="cursor-pointer">{t('arguments')}</summary>
          <code className="block whitespace-pre-wrap break-all">{use.arguments}</code>
        </details>
      )}
    </section>
  );
}

/** Every tool call of the answer with its result, as cards. */
export function ToolSteps({ steps }: { steps: readonly AnswerStep[] }) {
  const uses = toolUses(steps);
  if (!uses.length) return null;
  return (
    <div part="tools" className="flex flex-col gap-2">
      {uses.map((use) => (
        <ToolCard key={use.callId} use={use} />
      ))}
    </div>
  );
}
