import fs from 'node:fs/promises';
import { chunkText, withTitle } from './chunks';
import type { ParseResult, Progress } from './protocol';

const WATER = new Set(['HOH', 'WAT', 'DOD', 'H2O', 'TIP', 'TIP3', 'SOL']);
const ONE_LETTER: Record<string, string> = {
  ALA: 'A', ARG: 'R', ASN: 'N', ASP: 'D', CYS: 'C', GLN: 'Q', GLU: 'E', GLY: 'G', HIS: 'H', ILE: 'I', LEU: 'L', LYS: 'K',
  MET: 'M', PHE: 'F', PRO: 'P', SER: 'S', THR: 'T', TRP: 'W', TYR: 'Y', VAL: 'V', SEC: 'U', PYL: 'O', MSE: 'M',
  DA: 'A', DC: 'C', DG: 'G', DT: 'T', DU: 'U', A: 'A', C: 'C', G: 'G', U: 'U',
};

export interface PdbSummary {
  idCode: string | null;
  classification: string | null;
  date: string | null;
  title: string | null;
  compounds: string[];
  organisms: string[];
  method: string | null;
  resolution: string | null;
  chains: Array<{ id: string; residues: number; atoms: number; sequence: string }>;
  ligands: Array<{ name: string; fullName: string | null; chain: string; resSeq: string; atoms: number }>;
  keywords: string[];
  /** Title of the primary citation (JRNL TITL). */
  journalTitle: string | null;
  /** Binding sites (REMARK 800 and SITE records): what each site is for and its residues. */
  sites: Array<{ id: string; description: string | null; residues: string[] }>;
  atoms: number;
  models: number;
}

const col = (line: string, from: number, to: number) => line.slice(from - 1, to).trim();

/** A PDB file's title, chains, residues and ligands (HETATM groups other than water). */
export function summarisePdb(text: string): PdbSummary {
  const s: PdbSummary = { idCode: null, classification: null, date: null, title: null, compounds: [], organisms: [], method: null, resolution: null, chains: [], ligands: [], keywords: [], journalTitle: null, sites: [], atoms: 0, models: 0 };
  const keywords: string[] = [];
  const journal: string[] = [];
  const sites = new Map<string, { description: string | null; residues: string[] }>();
  const site = (id: string) => sites.get(id) ?? sites.set(id, { description: null, residues: [] }).get(id)!;
  let siteId: string | null = null;
  const titleParts: string[] = [];
  const compnd: string[] = [];
  const source: string[] = [];
  const hetNames = new Map<string, string>();
  const chains = new Map<string, { residues: Set<string>; atoms: number; seq: string[] }>();
  const ligands = new Map<string, { name: string; chain: string; resSeq: string; atoms: number }>();
  let inFirstModel = true;
  for (const line of text.split(/\r?\n/)) {
    const record = line.slice(0, 6).trim();
    switch (record) {
      case 'HEADER':
        s.classification = col(line, 11, 50) || null;
        s.date = col(line, 51, 59) || null;
        s.idCode = col(line, 63, 66) || null;
        break;
      case 'TITLE':
        titleParts.push(col(line, 11, 80));
        break;
      case 'COMPND':
        compnd.push(col(line, 11, 80));
        break;
      case 'SOURCE':
        source.push(col(line, 11, 80));
        break;
      case 'KEYWDS':
        keywords.push(col(line, 11, 79));
        break;
      case 'JRNL':
        if (col(line, 13, 16) === 'TITL') journal.push(col(line, 20, 79));
        break;
      case 'SITE':
        for (const at of [19, 30, 41, 52]) {
          const res = col(line, at, at + 2);
          // Waters in a site are left out, as everywhere in the summary.
          if (res && !WATER.has(res)) site(col(line, 12, 14)).residues.push(`${res} ${col(line, at + 4, at + 4)}${col(line, at + 5, at + 8)}`);
        }
        break;
      case 'EXPDTA':
        s.method = col(line, 11, 79) || null;
        break;
      case 'REMARK':
        if (col(line, 7, 10) === '2') {
          const m = /RESOLUTION\.\s+([\d.]+)\s*ANGSTROM/.exec(line);
          if (m) s.resolution = `${m[1]} Å`;
        } else if (col(line, 7, 10) === '800') {
          const m = /^(SITE_IDENTIFIER|SITE_DESCRIPTION):\s*(.*)$/.exec(col(line, 12, 80));
          if (m?.[1] === 'SITE_IDENTIFIER') siteId = m[2]!.trim() || null;
          else if (m && siteId) site(siteId).description = m[2]!.trim() || null;
        }
        break;
      case 'HETNAM': {
        const code = col(line, 12, 14);
        hetNames.set(code, ((hetNames.get(code) ?? '') + (col(line, 9, 10) ? '' : '') + col(line, 16, 70)).trim());
        break;
      }
      case 'MODEL':
        s.models++;
        inFirstModel = s.models <= 1;
        break;
      case 'ATOM':
      case 'HETATM': {
        if (!inFirstModel) break;
        s.atoms++;
        const resName = col(line, 18, 20);
        const chain = col(line, 22, 22) || '_';
        const resSeq = col(line, 23, 27);
        if (record === 'HETATM' && !ONE_LETTER[resName] && resName !== 'MSE') {
          if (WATER.has(resName)) break;
          const key = `${chain}|${resSeq}|${resName}`;
          const lig = ligands.get(key) ?? { name: resName, chain, resSeq, atoms: 0 };
          lig.atoms++;
          ligands.set(key, lig);
          break;
        }
        const c = chains.get(chain) ?? { residues: new Set<string>(), atoms: 0, seq: [] };
        c.atoms++;
        if (!c.residues.has(resSeq)) {
          c.residues.add(resSeq);
          c.seq.push(ONE_LETTER[resName] ?? 'X');
        }
        chains.set(chain, c);
        break;
      }
    }
  }
  s.title = titleParts.join(' ').replace(/\s+/g, ' ').trim() || null;
  s.compounds = compnd.join(' ').split(/MOL_ID:\s*\d+;/).map((c) => /MOLECULE:\s*([^;]+)/.exec(c)?.[1]?.trim()).filter((x): x is string => !!x);
  s.organisms = [...new Set(source.join(' ').match(/ORGANISM_SCIENTIFIC:\s*([^;]+)/g)?.map((m) => m.replace(/ORGANISM_SCIENTIFIC:\s*/, '').trim()) ?? [])];
  s.chains = [...chains.entries()].map(([id, c]) => ({ id, residues: c.residues.size, atoms: c.atoms, sequence: c.seq.join('') }));
  s.ligands = [...ligands.values()].map((l) => ({ ...l, fullName: hetNames.get(l.name) ?? null }));
  s.keywords = keywords.join(' ').split(',').map((k) => k.replace(/\s+/g, ' ').trim()).filter(Boolean);
  s.journalTitle = journal.join(' ').replace(/\s+/g, ' ').trim() || null;
  s.sites = [...sites.entries()].map(([id, v]) => ({ id, ...v }));
  if (!s.models) s.models = 1;
  return s;
}

/** PDB → a structure summary in markdown and passages. */
export async function parsePdb(file: string, title: string, progress: Progress): Promise<ParseResult> {
  const text = (await fs.readFile(file)).toString('latin1');
  progress(10, '正在读取结构');
  const s = summarisePdb(text);
  if (!s.atoms) throw new Error('PDB 文件中没有原子坐标');
  const facts = [
    s.idCode && `- PDB 编号：${s.idCode}`,
    s.classification && `- 分类：${s.classification}`,
    s.date && `- 日期：${s.date}`,
    s.method && `- 实验方法：${s.method}`,
    s.resolution && `- 分辨率：${s.resolution}`,
    s.compounds.length && `- 分子：${s.compounds.join('；')}`,
    s.organisms.length && `- 来源物种：${s.organisms.join('；')}`,
    s.keywords.length && `- 关键词：${s.keywords.join('；')}`,
    s.journalTitle && `- 文献：${s.journalTitle}`,
    `- 原子数：${s.atoms}${s.models > 1 ? `（共 ${s.models} 个模型，统计第 1 个）` : ''}`,
  ].filter(Boolean);
  const chainTable = ['| 链 | 残基数 | 原子数 | 序列 |', '| --- | --- | --- | --- |', ...s.chains.map((c) => `| ${c.id} | ${c.residues} | ${c.atoms} | ${c.sequence.length > 80 ? `${c.sequence.slice(0, 80)}…` : c.sequence} |`)].join('\n');
  const ligandTable = s.ligands.length
    ? ['| 配体 | 名称 | 链 | 残基号 | 原子数 |', '| --- | --- | --- | --- | --- |', ...s.ligands.map((l) => `| ${l.name} | ${l.fullName ?? ''} | ${l.chain} | ${l.resSeq} | ${l.atoms} |`)].join('\n')
    : '无配体（水分子除外）。';
  const siteTable = ['| 位点 | 说明 | 残基 |', '| --- | --- | --- |', ...s.sites.map((x) => `| ${x.id} | ${x.description ?? ''} | ${x.residues.join(' ')} |`)].join('\n');
  const markdown =
    [`# ${s.title ?? title}`, facts.join('\n'), `## 链（${s.chains.length}）`, chainTable, `## 配体（${s.ligands.length}）`, ligandTable, ...(s.sites.length ? [`## 结合位点（${s.sites.length}）`, siteTable] : [])].join('\n\n') + '\n';
  progress(80, '正在建立检索索引');
  const plain = [
    s.title ?? title,
    facts.join('\n'),
    s.chains.map((c) => `链 ${c.id}：${c.residues} 个残基，${c.atoms} 个原子，序列 ${c.sequence}`).join('\n'),
    // "：" rather than "（…）" after codes: full-width brackets become ASCII ones when segmenting, and
    // "SKE(4-…" or "AC1(binding" would be read as one SMILES-like token, hiding the code and the words.
    s.ligands.map((l) => `配体 ${l.name}${l.fullName ? `：${l.fullName}` : ''}，链 ${l.chain}，残基号 ${l.resSeq}，${l.atoms} 个原子`).join('\n'),
    s.sites.map((x) => `结合位点 ${x.id}${x.description ? `：${x.description}` : ''}${x.residues.length ? `；残基 ${x.residues.join(' ')}` : ''}`).join('\n'),
  ].join('\n\n');
  // The file name's words go with the first passage's index words ("5dpv" finds 5dpv.pdb).
  return { markdown, pageCount: null, chunks: withTitle(chunkText(plain), title), molecules: [], notes: [] };
}
