import { smilesInText } from '../../contract/smiles';
import { ChemInputError, type MolSummary } from '../chem/engine';
import { sharedChemService, type ChemService } from '../chem/service';
import { serverT, type Lang } from '../i18n';

/** A structure the asker wrote (or drew and inserted) in the question, as RDKit read it. */
export interface QuestionStructure extends MolSummary {
  /** The token as it stands in the question. */
  written: string;
}

/** Structures listed at most; candidates checked at most. */
const MAX_STRUCTURES = 5;
const MAX_CANDIDATES = 8;
/** However busy the chemistry workers are, the answer does not wait longer than this for them. */
const BUDGET_MS = 15_000; // RDKit workers start in ~1 s; a busy machine may take several

export interface FindOptions {
  chem?: Pick<ChemService, 'describe'>;
  signal?: AbortSignal;
  budgetMs?: number;
}

/**
 * The SMILES in a question that RDKit parses, one per distinct structure (by canonical SMILES),
 * in the order written. Tokens RDKit refuses are left out; when the chemistry service is busy,
 * failing or slower than the budget, what was found so far is returned (never an error).
 */
export async function questionStructures(question: string, { chem = sharedChemService(), signal, budgetMs = BUDGET_MS }: FindOptions = {}): Promise<QuestionStructure[]> {
  const candidates = smilesInText(question, MAX_CANDIDATES);
  if (!candidates.length) return [];
  const found: QuestionStructure[] = [];
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), budgetMs);
    signal?.addEventListener('abort', () => resolve('late'), { once: true });
  });
  try {
    for (const written of candidates) {
      if (signal?.aborted || found.length >= MAX_STRUCTURES) break;
      const described = chem.describe({ smiles: written }).then(
        (summary) => summary,
        (error: unknown) => {
          // Not a structure after all (ChemInputError), or the service could not say: skip it.
          if (!(error instanceof ChemInputError)) return 'unavailable' as const;
          return undefined;
        },
      );
      const summary = await Promise.race([described, outOfTime]);
      if (summary === 'late' || summary === 'unavailable') break;
      if (summary && summary.numAtoms > 0 && !found.some((s) => s.canonicalSmiles === summary.canonicalSmiles)) found.push({ written, ...summary });
    }
  } finally {
    clearTimeout(timer);
  }
  return found;
}

export const STRUCTURES_HEADING = serverT('zh')('answer.structures_heading');

/**
 * The "structures in the question" section of an answer: each structure with its formula and
 * heavy-atom count, then its canonical SMILES as inline code (which the answer view draws).
 */
export function structureLines(structures: readonly QuestionStructure[], lang: Lang = 'zh'): string[] {
  if (!structures.length) return [];
  const t = serverT(lang);
  const lines = [t('answer.structures_heading')];
  for (const s of structures) {
    const written = s.written === s.canonicalSmiles ? '' : t('answer.structure_written', { written: escapeMarkdown(s.written) });
    // The formula first: the answer view draws the structure right after the inline code.
    lines.push(t('answer.structure_line', { formula: s.formula, atoms: s.numAtoms, written, smiles: s.canonicalSmiles }));
  }
  lines.push('');
  return lines;
}

/** Every ASCII punctuation mark escaped: the written SMILES stays literal text in markdown. */
const escapeMarkdown = (s: string) => s.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
