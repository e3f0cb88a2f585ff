import { COMPLETION_MAX_CANDIDATES, type CompletionCandidate, type SmilesCompletionOutput } from '../../../contract/names';
import type { ChemService } from '../../chem/service';

/** A SMILES string being repaired and the changes made so far (Chinese, shown to the chemist). */
interface Draft {
  text: string;
  changes: string[];
  /** The draft before lower-case atoms were made aliphatic: if that one is valid, this one is not offered. */
  base?: string;
}

/** Drafts checked by RDKit at most (one identify call). */
const MAX_DRAFTS = 64;

type TokenKind = 'atom' | 'ring' | 'open' | 'close' | 'bond' | 'dot' | 'unknown';
interface Token {
  kind: TokenKind;
  text: string;
}

const TOKEN = /(\[[^\]]*\])|(Cl|Br|[BCNOPSFI]|[bcnops]|\*)|(%\d\d|\d)|(\()|(\))|([-=#$:/\\~])|(\.)|(.)/gy;
const KINDS: TokenKind[] = ['atom', 'atom', 'ring', 'open', 'close', 'bond', 'dot', 'unknown'];

/** Splits a SMILES with balanced brackets into atoms, ring labels, branches and bonds. */
function tokenize(s: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(s); m; m = TOKEN.exec(s)) {
    const group = m.slice(1).findIndex((g) => g !== undefined);
    out.push({ kind: KINDS[group] ?? 'unknown', text: m[0] });
  }
  return out;
}

const join = (tokens: Token[]) => tokens.map((t) => t.text).join('');
const isAromatic = (t: Token) => t.kind === 'atom' && (/^[bcnops]$/.test(t.text) || /^\[\d*(?:se|as|te|[bcnops])/.test(t.text));
const isStar = (t: Token) => t.kind === 'atom' && /^(?:\*|\[\d*\*(?::\d+)?\])$/.test(t.text);

/** Each fixer returns the alternatives for one draft (the draft itself when it finds nothing to fix). */
type Fixer = (d: Draft) => Draft[];

const withChange = (d: Draft, text: string, change: string): Draft => ({ ...d, text, changes: [...d.changes, change] });

/** `[` without `]`: close it, or drop it; `]` without `[`: drop it. */
const fixBrackets: Fixer = (d) => {
  let closed = '';
  let dropped = '';
  let open = -1; // where the open "[" is in `dropped`
  let unclosed = 0;
  let stray = 0;
  for (const c of d.text) {
    if (c === '[') {
      if (open >= 0) {
        unclosed++;
        closed += ']';
        dropped = dropped.slice(0, open) + dropped.slice(open + 1);
      }
      open = dropped.length;
      closed += c;
      dropped += c;
    } else if (c === ']') {
      if (open < 0) stray++;
      else {
        open = -1;
        closed += c;
        dropped += c;
      }
    } else {
      closed += c;
      dropped += c;
    }
  }
  if (open >= 0) {
    unclosed++;
    closed += ']';
    dropped = dropped.slice(0, open) + dropped.slice(open + 1);
  }
  if (!unclosed && !stray) return [d];
  const notes = stray ? [`删除多余的 “]”（${stray} 处）`] : [];
  if (!unclosed) return [{ text: closed, changes: [...d.changes, ...notes] }];
  return [
    { text: closed, changes: [...d.changes, ...notes, '补全方括号原子缺失的 “]”'] },
    // Or the "[" was a typo.
    { text: dropped, changes: [...d.changes, ...notes, '删除未闭合的 “[”'] },
  ];
};

/** Drops characters that are no part of SMILES (outside brackets). */
const fixUnknown: Fixer = (d) => {
  const tokens = tokenize(d.text);
  const unknown = tokens.filter((t) => t.kind === 'unknown');
  if (!unknown.length) return [d];
  const shown = [...new Set(unknown.map((t) => t.text))].slice(0, 5).join(' ');
  return [withChange(d, join(tokens.filter((t) => t.kind !== 'unknown')), `删除无法识别的字符 ${shown}`)];
};

/** A bond, dot or "(" at the end, or a bond before ")": nothing follows it. */
const fixDangling: Fixer = (d) => {
  let tokens = tokenize(d.text);
  const removed: string[] = [];
  for (;;) {
    const last = tokens.at(-1);
    if (!last || !(last.kind === 'bond' || last.kind === 'dot' || last.kind === 'open')) break;
    removed.unshift(last.text);
    tokens = tokens.slice(0, -1);
  }
  const lead: string[] = [];
  while (tokens[0] && (tokens[0].kind === 'bond' || tokens[0].kind === 'dot' || tokens[0].kind === 'ring' || tokens[0].kind === 'close')) {
    lead.push(tokens[0].text);
    tokens = tokens.slice(1);
  }
  // "()" and a bond right before ")" carry nothing.
  const cleaned: Token[] = [];
  let innerRemoved = 0;
  for (const t of tokens) {
    const prev = cleaned.at(-1);
    if (t.kind === 'close' && prev && (prev.kind === 'open' || prev.kind === 'bond')) {
      cleaned.pop();
      innerRemoved++;
      if (prev.kind === 'bond') cleaned.push(t);
      continue;
    }
    cleaned.push(t);
  }
  if (!removed.length && !lead.length && !innerRemoved) return [d];
  const changes = [...d.changes];
  if (removed.length) changes.push(`删除末尾没有连接原子的 “${removed.join('')}”`);
  if (lead.length) changes.push(`删除开头多余的 “${lead.join('')}”`);
  if (innerRemoved) changes.push('删除空的支链或悬空的键');
  return [{ text: join(cleaned), changes }];
};

/** Unmatched ")" dropped; unclosed "(" closed at the end. */
const fixBranches: Fixer = (d) => {
  const tokens = tokenize(d.text);
  const kept: Token[] = [];
  let depth = 0;
  let extra = 0;
  for (const t of tokens) {
    if (t.kind === 'open') depth++;
    if (t.kind === 'close') {
      if (depth === 0) {
        extra++;
        continue;
      }
      depth--;
    }
    kept.push(t);
  }
  if (!extra && !depth) return [d];
  const changes = [...d.changes];
  if (extra) changes.push(`删除多余的 “)”（${extra} 处）`);
  if (depth) changes.push(`补全 ${depth} 个未闭合的支链 “)”`);
  return [{ text: join(kept) + ')'.repeat(depth), changes }];
};

/** Ring labels opened and never closed, with the token index that opened them. */
function openRings(tokens: Token[]): Array<{ label: string; index: number }> {
  const open = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.kind !== 'ring') return;
    if (open.has(t.text)) open.delete(t.text);
    else open.set(t.text, i);
  });
  return [...open].map(([label, index]) => ({ label, index }));
}

/** Atoms from a token to the end on the same branch level (a ring closed at the end would hold these). */
function ringAtomsFrom(tokens: Token[], index: number): number {
  let depth = 0;
  let atoms = 1;
  for (const t of tokens.slice(index + 1)) {
    if (t.kind === 'open') depth++;
    else if (t.kind === 'close') depth--;
    else if (t.kind === 'atom' && depth === 0) atoms++;
  }
  return atoms;
}

/** Unclosed ring labels: close the ring at the last atom, fill an aromatic ring up to six atoms, or drop the label. */
const fixRings: Fixer = (d) => {
  let drafts: Draft[] = [d];
  for (;;) {
    const next: Draft[] = [];
    let changed = false;
    for (const draft of drafts) {
      const tokens = tokenize(draft.text);
      // The ring opened last is completed first (the inner ring of a fused system).
      const first = openRings(tokens).at(-1);
      if (!first) {
        next.push(draft);
        continue;
      }
      changed = true;
      const owner = tokens.slice(0, first.index).reverse().find((t) => t.kind === 'atom');
      const size = ringAtomsFrom(tokens, first.index);
      const label = first.label;
      const body = join(tokens);
      if (owner && isAromatic(owner)) {
        const fill = Math.max(1, 6 - size);
        next.push(withChange(draft, `${body}${'c'.repeat(fill)}${label}`, `补全芳香环：添加 ${fill} 个芳香碳并闭合环 ${label}`));
      }
      if (size >= 3) next.push(withChange(draft, `${body}${label}`, `在末尾原子处闭合环 ${label}`));
      const without = [...tokens.slice(0, first.index), ...tokens.slice(first.index + 1)];
      next.push(withChange(draft, join(without), `删除未闭合的环标记 ${label}`));
    }
    drafts = next.slice(0, MAX_DRAFTS);
    if (!changed) return drafts;
  }
};

/** Atoms inside closed rings (on the ring's own branch level): the only places aromatic atoms can be. */
function ringMembers(tokens: Token[]): Set<number> {
  const members = new Set<number>();
  const open = new Map<string, number>();
  tokens.forEach((t, i) => {
    if (t.kind !== 'ring') return;
    const start = open.get(t.text);
    if (start === undefined) {
      open.set(t.text, i);
      return;
    }
    open.delete(t.text);
    const owner = tokens.slice(0, start).map((x, j) => [x, j] as const).reverse().find(([x]) => x.kind === 'atom');
    if (owner) members.add(owner[1]);
    let depth = 0;
    for (let j = start + 1; j < i; j++) {
      const x = tokens[j]!;
      if (x.kind === 'open') depth++;
      else if (x.kind === 'close') depth--;
      else if (x.kind === 'atom' && depth === 0) members.add(j);
    }
  });
  return members;
}

const aliphatic = (t: Token): Token =>
  t.text.startsWith('[') ? { ...t, text: t.text.replace(/^(\[\d*)([a-z])/, (_m, pre: string, c: string) => pre + c.toUpperCase()) } : { ...t, text: t.text.toUpperCase() };

/** Lower-case atoms that cannot be aromatic: first those outside any ring, then all of them. */
const fixAromatic: Fixer = (d) => {
  const tokens = tokenize(d.text);
  if (!tokens.some(isAromatic)) return [d];
  const inRing = ringMembers(tokens);
  const outside = tokens.map((t, i) => (isAromatic(t) && !inRing.has(i) ? aliphatic(t) : t));
  const all = tokens.map((t) => (isAromatic(t) ? aliphatic(t) : t));
  const out: Draft[] = [d];
  if (join(outside) !== d.text) out.push({ ...withChange(d, join(outside), '将环外的小写（芳香）原子改为大写（脂肪族）'), base: d.text });
  if (join(all) !== join(outside)) out.push({ ...withChange(d, join(all), '将不能构成芳香环的小写原子全部改为大写（脂肪族）'), base: d.text });
  return out;
};

/** `*` attachment points: capped with hydrogen, or with a methyl group. */
const fixStars: Fixer = (d) => {
  const tokens = tokenize(d.text);
  const stars = tokens.filter(isStar).length;
  if (!stars) return [d];
  const replace = (atom: string) => join(tokens.map((t) => (isStar(t) ? { ...t, text: atom } : t)));
  return [
    withChange(d, replace('[H]'), `将 ${stars} 个连接点 * 替换为氢`),
    withChange(d, replace('C'), `将 ${stars} 个连接点 * 替换为甲基`),
  ];
};

/** Every repair applied in turn to every alternative so far, at most MAX_DRAFTS drafts. */
export function draftRepairs(input: string): Draft[] {
  const fixers: Fixer[] = [fixBrackets, fixUnknown, fixDangling, fixBranches, fixDangling, fixRings, fixStars, fixAromatic];
  let drafts: Draft[] = [{ text: input, changes: [] }];
  for (const fix of fixers) drafts = drafts.flatMap(fix).slice(0, MAX_DRAFTS * 2);
  // Fewest changes first: the smallest repair is the likeliest intent.
  const seen = new Set<string>();
  return drafts
    .filter((d) => d.changes.length > 0 && d.text && !seen.has(d.text) && seen.add(d.text))
    .sort((a, b) => a.changes.length - b.changes.length)
    .slice(0, MAX_DRAFTS);
}

/**
 * SMILES completion: a valid SMILES comes back canonical with its InChIKey; a partial
 * or malformed one gets up to five valid molecules, each with the changes made. Every candidate is
 * checked by RDKit; none is invented beyond the listed repairs.
 */
export async function completeSmiles(input: string, chem: ChemService): Promise<SmilesCompletionOutput> {
  const [asIs] = await chem.identify([input]);
  const hasStars = tokenize(input).some(isStar);
  if (asIs && !hasStars) {
    return { input, valid: true, candidates: [{ smiles: asIs.canonicalSmiles, inchi_key: asIs.inchiKey, changes: [] }], message: '已是有效的 SMILES，已转换为规范形式' };
  }
  const drafts = draftRepairs(input);
  const ids = drafts.length ? await chem.identify(drafts.map((d) => d.text)) : [];
  const candidates: CompletionCandidate[] = [];
  if (asIs) candidates.push({ smiles: asIs.canonicalSmiles, inchi_key: asIs.inchiKey, changes: [] });
  const seen = new Set(candidates.map((c) => c.smiles));
  const validTexts = new Set(drafts.filter((_d, i) => ids[i]).map((d) => d.text));
  if (asIs) validTexts.add(input);
  drafts.forEach((d, i) => {
    const id = ids[i];
    if (!id || seen.has(id.canonicalSmiles) || candidates.length >= COMPLETION_MAX_CANDIDATES) return;
    // Aromatic atoms made aliphatic only where the aromatic form itself could not be read.
    if (d.base !== undefined && validTexts.has(d.base)) return;
    seen.add(id.canonicalSmiles);
    candidates.push({ smiles: id.canonicalSmiles, inchi_key: id.inchiKey, changes: d.changes });
  });
  const message = asIs
    ? '有效的 SMILES 片段（含连接点 *），另附封端后的分子'
    : candidates.length
      ? `SMILES 无效，找到 ${candidates.length} 个可能的补全`
      : '无法补全为有效的结构，请检查 SMILES';
  return { input, valid: asIs !== null && asIs !== undefined, candidates, message };
}
