import fs from 'node:fs/promises';
import { loadRdkit } from '../chem/rdkit-loader';
import { overAtomLimit } from '../chem/atom-count';
import { segmentForIndex } from '../text/segment';
import { titleWords } from './chunks';
import type { ParsedChunk, ParsedMolecule, ParseResult, Progress } from './protocol';

/** Data fields that usually hold a molecule's name, in order of preference. */
const NAME_FIELDS = ['name', 'Name', 'NAME', 'title', 'Title', 'ID', 'id', 'PUBCHEM_IUPAC_NAME', 'PUBCHEM_COMPOUND_CID', 'chembl_id', 'NSC'];
const MAX_TABLE_PROPS = 8;
const MAX_TABLE_ROWS = 1000;
/** Characters of molecule names listed in the set's overview passage. */
const SUMMARY_NAMES = 600;

/** One SDF record split into its molblock and its data fields. */
export function splitRecord(record: string): { molfile: string; properties: Record<string, string> } | null {
  const lines = record.replace(/\r/g, '').split('\n');
  const end = lines.findIndex((l) => /^M {2}END/.test(l));
  if (end < 3) return null;
  const molfile = lines.slice(0, end + 1).join('\n') + '\n';
  const properties: Record<string, string> = {};
  for (let i = end + 1; i < lines.length; i++) {
    const m = /^>.*<([^>]+)>/.exec(lines[i]!);
    if (!m) continue;
    const values: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim() !== ''; i++) values.push(lines[i]!);
    properties[m[1]!.trim()] = values.join('\n').trim();
  }
  return { molfile, properties };
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 120);

/** SDF → one record per molecule with its data fields and canonical SMILES (RDKit). */
export async function parseSdf(file: string, title: string, progress: Progress): Promise<ParseResult> {
  const text = (await fs.readFile(file)).toString('utf8');
  // The line after "$$$$" starts the next record; its first line (the name) may be empty.
  const records = text.replace(/\r\n?/g, '\n').split(/^\$\$\$\$[^\n]*(?:\n|$)/m).filter((r) => r.trim());
  const rdkit = await loadRdkit();
  progress(5, `共 ${records.length} 条记录，正在读取分子`);
  const molecules: ParsedMolecule[] = [];
  let invalid = 0;
  for (let i = 0; i < records.length; i++) {
    const parts = splitRecord(records[i]!);
    if (!parts) {
      invalid++;
      continue;
    }
    let smiles: string | null = null;
    // Explicit hydrogens (common in 3D SDF files) are folded in, so the SMILES is the usual canonical
    // one. A record larger than RDKit reads safely (MOL_LIMITS.atoms) is kept without a structure.
    const mol = overAtomLimit(parts.molfile, 'molfile') ? null : rdkit.get_mol(parts.molfile, JSON.stringify({ removeHs: true }));
    try {
      if (mol?.is_valid()) smiles = mol.get_smiles();
      else invalid++;
    } finally {
      mol?.delete();
    }
    const header = parts.molfile.split('\n')[0]!.trim();
    const field = NAME_FIELDS.find((k) => parts.properties[k]);
    molecules.push({ idx: molecules.length + 1, name: (field ? parts.properties[field]! : header) || null, smiles, molfile: parts.molfile, properties: parts.properties });
    if (i % 50 === 0) progress(5 + (i / records.length) * 85);
  }
  if (!molecules.length) throw new Error('SDF 文件中没有可读取的分子');

  // The most common data fields become table columns.
  const counts = new Map<string, number>();
  for (const m of molecules) for (const k of Object.keys(m.properties)) counts.set(k, (counts.get(k) ?? 0) + 1);
  const columns = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, MAX_TABLE_PROPS).map(([k]) => k);
  const head = ['#', '名称', 'SMILES', ...columns];
  // Every molecule is stored and indexed; the markdown table shows the first MAX_TABLE_ROWS.
  const shown = molecules.slice(0, MAX_TABLE_ROWS);
  const md = [
    `# ${title}`,
    `共 ${molecules.length} 个分子${invalid ? `，其中 ${invalid} 条记录无法解析结构` : ''}。`,
    [`| ${head.map(cell).join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...shown.map((m) => `| ${[String(m.idx), m.name ?? '', m.smiles ?? '', ...columns.map((c) => m.properties[c] ?? '')].map(cell).join(' | ')} |`)].join('\n'),
    ...(molecules.length > shown.length ? [`表中只列出前 ${shown.length} 个分子，其余 ${molecules.length - shown.length} 个已全部收录并可检索。`] : []),
  ].join('\n\n');

  // The file name's words go with every passage's index words: each record is an entry of the set
  // the file names ("cdk2.sdf" is found by "CDK2"); the cited text stays as it is.
  const named = titleWords(title);
  const passage = (text: string): ParsedChunk => ({ page: null, bbox: null, text, segmented: `${named} ${segmentForIndex(text)}`.trim() });
  // First an overview of the set (its file, size, data fields and molecule names), then one passage per molecule.
  const names = molecules.flatMap((m) => (m.name ? [m.name] : []));
  let nameList = '';
  for (const n of names) {
    if (nameList.length + n.length > SUMMARY_NAMES) {
      nameList += '……';
      break;
    }
    nameList += nameList ? `、${n}` : n;
  }
  const summary = [
    `${title}：SDF 分子集，共 ${molecules.length} 个分子${invalid ? `（${invalid} 条记录无法解析结构）` : ''}。`,
    ...(columns.length ? [`数据字段：${columns.join('、')}`] : []),
    ...(nameList ? [`分子：${nameList}`] : []),
  ].join('\n');
  const chunks: ParsedChunk[] = [
    passage(summary),
    ...molecules.map((m) => {
      const lines = [`分子 ${m.idx}${m.name ? `：${m.name}` : ''}`, `SMILES: ${m.smiles ?? '（无法解析）'}`, ...Object.entries(m.properties).map(([k, v]) => `${k}: ${v}`)];
      return passage(lines.join('\n').slice(0, 4000));
    }),
  ];
  const notes = invalid ? [`有 ${invalid} 条记录无法解析结构`] : [];
  return { markdown: md + '\n', pageCount: null, chunks, molecules, notes };
}
