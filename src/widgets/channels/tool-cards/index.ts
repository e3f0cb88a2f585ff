import type { ComponentType } from 'react';
import type { ToolName } from '../../../contract/tools';
import type { ToolCardProps } from './types';

// The cards import their props from './types', not from this index (which imports them).
export type { ToolCardProps };

/**
 * The card that renders each tool's result in an answer, live and after reload alike. A tool
 * without an entry (or whose `data` does not parse) shows its `content` as text.
 */
export const toolCards: Partial<Record<ToolName, () => Promise<ComponentType<ToolCardProps>>>> = {
  intelligence_search: () => import('./IntelligenceCard').then((m) => m.default),
  admet: () => import('./AdmetCard').then((m) => m.AdmetCard),
  name_to_smiles: () => import('./NameCard').then((m) => m.default),
  smiles_completion: () => import('./CompletionCard').then((m) => m.default),
  patent_search: () => import('./PatentCard').then((m) => m.default),
  code_execution: () => import('./CodeCard').then((m) => m.default),
  page_crawl: () => import('./PageCrawlCard').then((m) => m.default),
  docking_submit: () => import('./DockingCard').then((m) => m.DockingCard),
  task_query: () => import('./DockingCard').then((m) => m.TaskCard),
};
