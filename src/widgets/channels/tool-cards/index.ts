import type { ComponentType } from 'react';
import { TOOL_CATALOG, type ToolCardKind, type ToolName } from '../../../contract/tools';
import type { ToolCardProps } from './types';

// The cards import their props from './types', not from this index (which imports them).
export type { ToolCardProps };

type CardLoader = () => Promise<ComponentType<ToolCardProps>>;

/** Each card of `ToolCardKind` (the `card` of a tool in `TOOL_CATALOG`), loaded on first use. */
const cards: Record<ToolCardKind, CardLoader> = {
  intelligence: () => import('./IntelligenceCard').then((m) => m.default),
  admet: () => import('./AdmetCard').then((m) => m.AdmetCard),
  name: () => import('./NameCard').then((m) => m.default),
  completion: () => import('./CompletionCard').then((m) => m.default),
  patent: () => import('./PatentCard').then((m) => m.default),
  code: () => import('./CodeCard').then((m) => m.default),
  page: () => import('./PageCrawlCard').then((m) => m.default),
  docking: () => import('./DockingCard').then((m) => m.DockingCard),
  task: () => import('./DockingCard').then((m) => m.TaskCard),
};

/**
 * The card that renders each tool's result in an answer, live and after reload alike, by the
 * tool's `card` in the catalogue. A tool without one (or whose `data` does not parse) shows its
 * `content` as text.
 */
export const toolCards: Partial<Record<ToolName, CardLoader>> = Object.fromEntries(
  TOOL_CATALOG.flatMap((t): Array<[ToolName, CardLoader]> => (t.card ? [[t.name, cards[t.card]]] : [])),
);
