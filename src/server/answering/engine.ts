import type { Citation, ResearchStep } from '../../contract/channel';
import type { StoredRequest } from './request';
import type { RetrievedPassage } from '../retrieval/knowledge-port';
import type { ToolResultPayload } from '../../contract/tools';
import type { Viewer } from '../access/access';
import type { ToolRegistry } from '../tools/registry';
import type { ChatCompletion } from '../llm/chat';
import type { OnlineHit } from '../online/hit';

/** A retrieved passage numbered as the answer cites it ([n]). */
export interface NumberedPassage extends RetrievedPassage {
  n: number;
}

/** An online result numbered as the answer cites it ([n]), with when it was found. */
export interface NumberedHit extends OnlineHit {
  n: number;
  /** ISO time of the search that found it. */
  fetchedAt: string;
}

/** What an answer may cite: a document passage or an online result. */
export type Citable = NumberedPassage | NumberedHit;

/** The options of the question request an engine acts on. */
export type AnswerOptions = Pick<StoredRequest, 'if_search_online' | 'search_type' | 'if_thinking' | 'deepresearch' | 'tools_name'>;

/** Everything an engine needs to answer one question. */
export interface AnswerInput {
  question: string;
  /** Earlier questions of the channel with their answers, oldest first. */
  history: Array<{ question: string; answer: string }>;
  /** Whether the asker chose files or knowledge bases. */
  hasSources: boolean;
  passages: NumberedPassage[];
  /** Online results (web, literature, patents) searched before answering, numbered after the passages; empty when online search is off or found nothing. */
  online?: NumberedHit[];
  options: AnswerOptions;
  /** Who asks: tools run with exactly what this user may read. */
  viewer: Viewer;
  /** The readable documents the question chose (files, or the documents of its knowledge bases). */
  docIds: string[];
  signal: AbortSignal;
  /** The question being answered: files tools keep belong to it. */
  questionId?: string | undefined;
}

/** Where an engine writes the answer as it goes; each call becomes one persisted event. */
export interface AnswerSink {
  /** A one-line notice shown with the answer (e.g. a toggle that could not be honoured). */
  notice(message: string): void;
  thinking(text: string): void;
  delta(text: string): void;
  toolCall(call: { call_id: string; name: string; arguments: string }): void;
  toolResult(result: { call_id: string; name: string } & ToolResultPayload): void;
  citation(citation: Citation): void;
  researchStep(step: ResearchStep): void;
}

/** DESIGN §4: one interface, an OpenAI-compatible engine and the local one. */
export interface AnswerEngine {
  readonly name: 'openai' | 'local';
  answer(input: AnswerInput, sink: AnswerSink, tools: ToolRegistry): Promise<void>;
  /** Engines with a language model also offer plain completions (deep research). */
  chat?: ChatCompletion;
}

/** A failure whose message is fit to show the asker (Chinese). */
export class AnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnswerError';
  }
}

/** The citation event of a passage or an online result. */
export const citationOf = (p: Citable): Citation =>
  'url' in p
    ? { n: p.n, url: p.url, title: p.title, site: p.site, snippet: p.snippet, fetchedAt: p.fetchedAt, kind: p.kind }
    : { n: p.n, docId: p.docId, title: p.title, page: p.page, bbox: p.bbox, text: p.text };

const MARKER = /\[(\d{1,3}(?:\s*[,，、]\s*\d{1,3})*)\]/g;
/** The longest citation marker looked for: [1, 2, 3, …] of up to about forty numbers. */
const MARKER_MAX = 256;

/**
 * Watches the answer text as it streams and emits one citation event for each passage the first
 * time the answer cites it as [n] (also [1, 2]); numbers without a passage are ignored. `add`
 * makes more sources citable while the answer is written (online results of a tool the model called).
 */
export function citationTracker(passages: readonly Citable[], sink: Pick<AnswerSink, 'citation'>) {
  const byN = new Map(passages.map((p) => [p.n, p]));
  const emitted = new Set<number>();
  // Only the text not yet scanned is kept (a long answer is not copied again for every delta):
  // from a little before the last complete position, as a marker may span two deltas.
  let text = '';
  return {
    add(more: readonly Citable[]) {
      for (const p of more) if (!byN.has(p.n)) byN.set(p.n, p);
    },
    push(delta: string) {
      text += delta;
      MARKER.lastIndex = 0;
      let m: RegExpExecArray | null;
      while ((m = MARKER.exec(text))) {
        for (const part of m[1]!.split(/[,，、]/)) {
          const n = Number(part.trim());
          const p = byN.get(n);
          if (p && !emitted.has(n)) {
            emitted.add(n);
            sink.citation(citationOf(p));
          }
        }
      }
      const open = text.lastIndexOf('[');
      // An open bracket further back than any marker could reach is not one.
      const scanned = open > text.lastIndexOf(']') && text.length - open <= MARKER_MAX ? open : text.length;
      text = text.slice(Math.max(0, scanned - 16));
    },
    get cited() {
      return [...emitted];
    },
  };
}
