import LinkifyIt from 'linkify-it';
import { titleWords } from '../parsing/chunks';
import { isReferenceItem } from '../parsing/navigation';
import { alsoRetrieved, citedPassages } from '../retrieval/rerank';
import type { RetrievedPassage } from '../retrieval/knowledge-port';
import { tokens } from '../text/segment';
import { symbolCommands } from '../text/synonyms';
import { citationTracker, type AnswerEngine, type AnswerInput, type AnswerSink, type NumberedHit, type NumberedPassage } from './engine';
import { questionStructures, structureLines } from './question-structures';
import { planLocalTools, runLocalTools, toolRunLines, type LocalToolDeps } from './local-tools';
import type { ToolRegistry } from '../tools/registry';
import { activityAnswerLines } from '../chemdocs/activity-answer';
import { serverT, type Lang } from '../i18n';

// The Chinese texts (i18n/answer-en.ts holds both languages; the engine says them in the asker's).
const zh = serverT('zh');
export const NO_MODEL_LINE = zh('answer.no_model_line');
export const NO_MODEL_NO_SOURCES = zh('answer.no_model_no_sources');
export const NO_MODEL_TOOLS = zh('answer.no_model_tools');
export const NO_MODEL_STRUCTURES = zh('answer.no_model_structures');
export const NO_MODEL_WEB = zh('answer.no_model_web');
export const WEB_RESULTS_HEADING = zh('answer.web_results_heading');
export const NOTHING_FOUND = zh('answer.nothing_found');

const QUOTE_LENGTH = 160;
/** The best passage is quoted at more length. */
const BEST_QUOTE_LENGTH = 320;

const SENTENCE_END = /(?<=[。！？!?；;])|(?<=[.])\s+|\n+/;

/**
 * The sentences of a text, in order. A reference-list item is one ("[4]张林波。关于新版CCT的说明，
 * 2003。" with the lines it runs on to): split at its full stops, the quote kept the title and lost
 * the author asked about.
 */
function sentencesOf(text: string): string[] {
  const pieces: string[] = [];
  let item: string | null = null;
  for (const line of text.split('\n')) {
    if (isReferenceItem(line)) {
      if (item !== null) pieces.push(item);
      item = line;
    } else if (item !== null) item += ` ${line}`;
    else pieces.push(...line.split(SENTENCE_END));
  }
  if (item !== null) pieces.push(item);
  return pieces;
}

/** `text` cut to `length` characters (code points), with an ellipsis when cut. */
const clipped = (text: string, length: number) => ([...text].length > length ? [...text].slice(0, length).join('') + '…' : text);

/** The one or two sentences of a passage that share the most words with the question, in their order. */
export function quoteOf(text: string, questionTokens: Set<string>, length = QUOTE_LENGTH): string {
  const sentences: string[] = [];
  let lead = ''; // a list number ("7.") or symbol split off at its dot goes with the sentence after it
  for (const piece of sentencesOf(text)) {
    const s = piece.replace(/\s+/g, ' ').trim();
    if (!s) continue;
    if (!/\p{L}{2}/u.test(s)) lead = lead ? `${lead} ${s}` : s;
    else {
      sentences.push(lead ? `${lead} ${s}` : s);
      lead = '';
    }
  }
  if (lead.length > 1) sentences.push(lead);
  if (!sentences.length) return '';
  const scored = sentences.map((s, i) => ({ s, i, score: tokens(s).filter((t) => questionTokens.has(t)).length }));
  const best = [...scored].sort((a, b) => b.score - a.score || a.i - b.i).slice(0, length > QUOTE_LENGTH ? 3 : 2).filter((x, k) => k === 0 || x.score > 0);
  const chosen = best.sort((a, b) => a.i - b.i).map((x) => x.s);
  return asQuoteText(clipped(chosen.join(' '), length));
}

/** A contents entry's numbering: "G" or "A" (a lettered part), "1.4" (a numbered section); levels counted by dots. */
function numberingOf(entry: string): { lettered: boolean; levels: number } | null {
  const m = /^(?:附录\s*)?([A-Z]|\d{1,3})((?:\.\d{1,3})*)(?=\s*\S)/.exec(entry);
  if (!m) return null;
  return { lettered: /[A-Z]/.test(m[1]!), levels: 1 + (m[2]!.match(/\./g)?.length ?? 0) };
}

const isPeerOrAbove = (other: ReturnType<typeof numberingOf>, of: NonNullable<ReturnType<typeof numberingOf>>) =>
  other !== null && other.lettered === of.lettered && other.levels <= of.levels;

/** A contents entry's leader and page number ("如何升级？. . . . . . 8", "| 7"), kept as the page alone. */
const ENTRY_PAGE = /\s*(?:(?:\.\s?){3,}|…{2,}|(?:·\s?){3,})?\s*\|?\s*(\d{1,4}|[ivxlc]{1,7})\s*$/i;

/**
 * The quote of a contents passage found for a question about the outline (retrieval/outline.ts):
 * the entry that shares most of the question's words (the part it names) and the entries after it,
 * each as "title（page）" without leaders, up to `length` characters: what the part holds, not
 * the sentence picker's pieces of dot leaders.
 */
export function outlineQuoteOf(text: string, questionTokens: Set<string>, length = QUOTE_LENGTH): string {
  const entries = text
    .split('\n')
    .map((line) => {
      const m = ENTRY_PAGE.exec(line);
      const title = (m ? line.slice(0, m.index) : line).replace(/\s+/g, ' ').trim();
      return m && title ? `${title}（${m[1]}）` : title;
    })
    .filter(Boolean);
  if (!entries.length) return '';
  const shared = entries.map((e) => tokens(e).filter((t) => questionTokens.has(t)).length);
  const start = shared.indexOf(Math.max(...shared));
  // The part ends at the next entry numbered like it, at its level or above ("G数学公式" at
  // "H图形表格", not at its questions "45…"; "1.4升级宏包" at "1.5…" or "2…").
  const level = numberingOf(entries[start]!);
  const next = level ? entries.findIndex((e, i) => i > start && isPeerOrAbove(numberingOf(e), level)) : -1;
  return asQuoteText(clipped(entries.slice(start, next === -1 ? undefined : next).join('；'), length));
}

/** Question words that say nothing about the subject (Chinese words and bigrams, English words). */
const QUESTION_WORDS = new Set(
  ('什么 是什 么是 什么是 怎么 怎样 如何 哪些 有哪 哪个 为什么 为什 是否 可以 请问 一下 介绍 告诉 关于 有关 '
    + 'the a an is are was were what how which why who when where of to in on for and or does do can about please').split(' '),
);

/**
 * The words of a question that carry its subject, with the commands of a symbol it pastes (⊕:
 * oplus), as retrieval weighs them (rerank.ts weightedTerms): the quote from a symbol table is
 * then the row writing \oplus, not the table's caption.
 */
export function subjectTokens(question: string): Set<string> {
  const list = [...tokens(question), ...symbolCommands(question)].filter((t) => !QUESTION_WORDS.has(t));
  // As in the index query: single Han characters match almost anything when longer words exist.
  const long = list.filter((t) => !/^\p{Script=Han}$/u.test(t));
  return new Set(long.length ? long : list);
}

/** How many of the question's words a passage shares (a passage sharing none is not quoted). */
export const overlap = (text: string, questionTokens: Set<string>) => tokens(text).filter((t) => questionTokens.has(t)).length;

/**
 * Document text made safe inside the answer's markdown: table cells joined with ·, brackets made
 * full-width so a "[3]" of the document is never taken for a citation, markdown marks escaped.
 */
export function asQuoteText(text: string): string {
  const cells = text.includes('|') ? text.split('|').map((c) => c.trim()).filter(Boolean).join(' · ') : text;
  return cells
    .replace(/\[/g, '［')
    .replace(/\]/g, '］')
    .replace(/[*_`~<>#]/g, (c) => `\\${c}`)
    .trim();
}

/** The answer view's address finder (markdown-it's, with its defaults): what it would link in a title. */
const linkify = new LinkifyIt();

/**
 * A title (a document's, a web page's) made plain text inside the answer's markdown: brackets
 * full-width as in quotes, line breaks a space, the marks that make markdown (emphasis, code,
 * headings, HTML, entities, tables, images) escaped, and every punctuation mark of whatever the
 * answer view would link (an address, a domain, an e-mail) escaped too — markdown-it's linkify
 * skips escaped characters, so `evil.example.com` or `http://…` in a title is shown, not linked.
 * A title is written by whoever uploaded the file, and shared folders show it in everyone's
 * answers. An ordinary `name.pdf` stays as it is.
 */
export function titleText(title: string): string {
  const text = title.replace(/\s+/g, ' ').replace(/\[/g, '［').replace(/\]/g, '］').trim();
  const links = linkify.match(text) ?? [];
  let out = '';
  let at = 0;
  const plain = (s: string) => s.replace(/[\\*_`~<>#&|!]/g, (c) => `\\${c}`);
  for (const link of links) {
    out += plain(text.slice(at, link.index)) + text.slice(link.index, link.lastIndex).replace(/[!-/:-@\\^-`{-~]/g, (c) => `\\${c}`);
    at = link.lastIndex;
  }
  return out + plain(text.slice(at));
}

/**
 * DESIGN §4 `local`: answers from the retrieved passages alone. Retrieval's best passages are grouped by
 * document (strongest document first, best passage first), each quoted briefly and cited as [n].
 * Deep research does not come here: deep-research.ts plans, searches and writes its own report.
 */
export function localEngine({ chem, names, db }: Partial<LocalToolDeps> = {}): AnswerEngine {
  return {
    name: 'local',
    async answer(input: AnswerInput, sink: AnswerSink, tools: ToolRegistry) {
      // Written in the asker's language (users.language): Chinese unless they chose English.
      const lang = input.viewer.lang ?? 'zh';
      const t = serverT(lang);
      // SMILES in the question (drawn in the chemical editor or pasted), checked by RDKit, shown as structures.
      const structures = structureLines(await questionStructures(input.question, { chem, signal: input.signal }), lang);
      // Tools the question plainly asks for, among those left on (tool_call / tool_result events, cards in the answer).
      const usable = new Set<string>(tools.select(input.options.tools_name).map((tool) => tool.name));
      const plan = usable.size && chem && names ? await planLocalTools(input, usable, { chem, names, ...(db ? { db } : {}) }) : { calls: [], notes: [] };
      const runs = await runLocalTools(plan.calls, tools, input, sink);
      const toolLines = toolRunLines(runs, plan.notes, lang);
      // Compounds found by their activities: the answer is those records, each citing its structure and table row.
      const compounds = activityAnswerLines(runs, titleText);
      if (compounds) {
        writeLines(sink, [t('answer.no_model_tools'), '', ...toolLines, ...structures, ...compounds.lines], citationTracker(compounds.citable, sink));
        return;
      }
      const questionTokens = subjectTokens(input.question);
      if (!input.hasSources && input.online?.length) {
        // No documents, but online results: their snippets quoted and cited, as passages are.
        const hits = input.online.map((h, i) => ({ ...h, n: i + 1 }));
        writeLines(sink, [t('answer.no_model_web'), '', ...toolLines, ...structures, ...hitQuoteLines(hits, questionTokens, lang)], citationTracker(hits, sink));
        return;
      }
      // Something was computed: the headline says where it comes from, never "无法直接回答" before an answer.
      if (!input.hasSources && runs.length) {
        writeLines(sink, [t('answer.no_model_tools'), '', ...toolLines, ...structures]);
        return;
      }
      if (!input.hasSources) {
        writeLines(sink, [
          t(structures.length ? 'answer.no_model_structures' : 'answer.no_model_no_sources'),
          '',
          ...toolLines,
          ...structures,
          t('answer.help_intro'),
          t('answer.help_passages'),
          t('answer.help_open'),
          t('answer.help_tools'),
          '',
          t('answer.help_choose'),
        ]);
        return;
      }
      const chosen = choosePassages(input.passages, questionTokens);
      if (!chosen.length && runs.length) {
        // The question asked for a tool (a docking job into the attached PDB file): its result is the answer.
        writeLines(sink, [t('answer.no_model_tools'), '', ...toolLines, ...structures]);
        return;
      }
      if (!chosen.length) {
        const hits = (input.online ?? []).map((h, i) => ({ ...h, n: i + 1 }));
        writeLines(sink, [t('answer.no_model_line'), '', ...toolLines, ...structures, t('answer.nothing_found'), ...(hits.length ? ['', ...hitQuoteLines(hits, questionTokens, lang)] : [])], citationTracker(hits, sink));
        return;
      }
      // Near-duplicates (the same text in two documents, or a passage repeated) are quoted once,
      // citing every copy.
      const quotes = mergeDuplicates(chosen);
      const renumbered: NumberedPassage[] = [];
      const cite = (list: NumberedPassage[]) =>
        list
          .map((p) => {
            renumbered.push({ ...p, n: renumbered.length + 1 });
            return `[${renumbered.length}]`;
          })
          .join('');
      const lines = [t('answer.no_model_line'), '', ...toolLines, ...structures];
      // Grouped by document in order of each document's best passage. The best passage of all comes
      // first, under its heading (its first line, when that is a heading or a question) and quoted
      // at more length; the others briefly. Each quote cites every copy it stands for.
      const byDoc = new Map<string, NumberedPassage[][]>();
      for (const list of quotes) byDoc.set(list[0]!.docId, [...(byDoc.get(list[0]!.docId) ?? []), list]);
      let first = true;
      for (const lists of byDoc.values()) {
        // A title is user text: escaped like the quotes, so a file name cannot plant links.
        lines.push(`**《${titleText(lists[0]![0]!.title)}》**`);
        for (const list of lists) {
          const p = list[0]!;
          const where = p.page ? t('answer.page', { page: p.page }) : '';
          const length = first ? BEST_QUOTE_LENGTH : QUOTE_LENGTH;
          if (p.outline) {
            lines.push(`- ${where}“${outlineQuoteOf(p.text, questionTokens, length)}” ${cite(list)}`);
            first = false;
            continue;
          }
          const heading = first ? headingOf(p.text) : null;
          if (heading) lines.push(`> ${asQuoteText(heading)}`);
          const body = heading ? p.text.slice(p.text.indexOf(heading) + heading.length) : p.text;
          lines.push(`- ${where}“${quoteOf(body, questionTokens, length)}” ${cite(list)}`);
          first = false;
        }
        lines.push('');
      }
      // The rest of retrieval's best, covering little of the question: listed after the quotes, not lost.
      const also = alsoRetrieved(input.passages, chosen);
      if (also.length) {
        lines.push(t('answer.also_retrieved'));
        for (const p of also) lines.push(`- 《${titleText(p.title)}》${p.page ? t('answer.page', { page: p.page }) : ''}“${quoteOf(p.text, questionTokens, QUOTE_LENGTH)}” ${cite([p])}`);
        lines.push('');
      }
      // Online results after the documents, numbered on from them.
      const hits = (input.online ?? []).map((h, i) => ({ ...h, n: renumbered.length + i + 1 }));
      if (hits.length) lines.push(...hitQuoteLines(hits, questionTokens, lang));
      writeLines(sink, lines, citationTracker([...renumbered, ...hits], sink));
    },
  };
}

/** Online results quoted without a model: site and title, the snippet's sentences nearest the question, the citation. */
export function hitQuoteLines(hits: readonly NumberedHit[], questionTokens: Set<string>, lang: Lang = 'zh'): string[] {
  const lines = [serverT(lang)('answer.web_results_heading')];
  for (const h of hits) {
    const quote = quoteOf(h.snippet, questionTokens);
    // Titles, sites and snippets are outside text: escaped like document quotes, so they plant no links or citations.
    lines.push(`- ${titleText(h.site)}《${titleText(h.title)}》${quote ? `：“${quote}”` : ''} [${h.n}]`);
  }
  lines.push('');
  return lines;
}

/**
 * The passages to quote and cite: retrieval's best (rerank.ts `citedPassages`), in its order. None
 * when nothing covers enough of the question (the answer then says it found nothing). After the
 * first, a passage covering little of the question is kept when it shares a word of the
 * question's subject, in its text or its file's name (which the index holds too). `abstainBelow`:
 * another abstention threshold (bench/retrieval-answer.ts tunes it).
 */
export function choosePassages<T extends RetrievedPassage>(passages: T[], questionTokens: Set<string>, abstainBelow?: number): T[] {
  return citedPassages(passages, (p) => overlap(p.text, questionTokens) > 0 || overlap(titleWords(p.title), questionTokens) > 0, abstainBelow);
}

/** Every passage an answer cites: those it quotes (choosePassages), then the rest of retrieval's best (rerank.ts alsoRetrieved). */
export function citedByAnswer<T extends RetrievedPassage>(passages: T[], questionTokens: Set<string>, abstainBelow?: number): T[] {
  const chosen = choosePassages(passages, questionTokens, abstainBelow);
  return [...chosen, ...alsoRetrieved(passages, chosen)];
}

/** Passages whose words are mostly the same (Jaccard ≥ 0.8) are one quote: groups in order of their first passage. */
export function mergeDuplicates(passages: NumberedPassage[]): NumberedPassage[][] {
  const groups: Array<{ words: Set<string>; list: NumberedPassage[] }> = [];
  for (const p of passages) {
    const words = new Set(tokens(p.text, { bigrams: false }));
    const same = groups.find((g) => jaccard(g.words, words) >= 0.8);
    if (same) same.list.push(p);
    else groups.push({ words, list: [p] });
  }
  return groups.map((g) => g.list);
}

const jaccard = (a: Set<string>, b: Set<string>) => {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const all = a.size + b.size - both;
  return all ? both / all : 1;
};

/** A passage's first line when it is a heading or a FAQ question (short, not a sentence of the text). */
export function headingOf(text: string): string | null {
  const question = /^\s*(?:Q\s?)?\d{1,3}[.、．)]?\s?[^\n。？?]{2,90}[？?]/u.exec(text);
  if (question && question[0].length < text.trim().length) return question[0].trim();
  const first = text.split('\n', 1)[0]!.trim();
  if (!text.includes('\n') || first.length > 80 || first.length < 2) return null;
  return /[？?]$/.test(first) || !/[。.;；:：,，]$/.test(first) ? first : null;
}

/** Streams the lines one by one (so the answer appears progressively), citing as markers appear. */
function writeLines(sink: AnswerSink, lines: string[], tracker?: ReturnType<typeof citationTracker>) {
  const text = lines.join('\n').replace(/\n+$/, '');
  for (const piece of text.split(/(?<=\n)/)) {
    sink.delta(piece);
    tracker?.push(piece);
  }
}
