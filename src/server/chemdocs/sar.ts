/**
 * A document's structure–activity (SAR) table: one row per compound label its
 * activities name, with the structure linked by label (a figure of the document, or an SDF record
 * of the same knowledge base; activity-filter.ts says how) and its activities as columns (measure ×
 * target × concentration); exported as CSV and as SDF with the activities as data fields.
 */
import type { LinkedActivity, SarResult, SarRow } from '../../contract/chemdocs';
import { canAccess, docReadable, type Viewer } from '../access/access';
import type { Db } from '../db/database';
import { documentActivities } from '../molecules/activity-filter';
import { normaliseLabel } from '../text/compound-label';

const columnKey = (a: Pick<LinkedActivity, 'measure' | 'target' | 'concentration'>) => `${a.measure}|${a.target ?? ''}|${a.concentration ?? ''}`;

/** The SAR table of a document the viewer may read (404 otherwise, as for the document itself). */
export async function sarTable(db: Db, viewer: Viewer, docId: string): Promise<SarResult> {
  const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
  const activities = await documentActivities(db, docId);
  const columns: SarResult['columns'] = [];
  const seen = new Set<string>();
  const byLabel = new Map<string, LinkedActivity[]>();
  let unlabelled = 0;
  for (const a of activities) {
    if (!a.label) {
      unlabelled++;
      continue;
    }
    const key = columnKey(a);
    if (!seen.has(key)) {
      seen.add(key);
      columns.push({ key, measure: a.measure, target: a.target, concentration: a.concentration });
    }
    byLabel.set(a.label, [...(byLabel.get(a.label) ?? []), a]);
  }
  // Structures by label: this document's own molecules first (its figures), then the knowledge base's SDF records.
  const molecules = byLabel.size
    ? await db
        .selectFrom('molecules')
        .innerJoin('kb_documents', 'kb_documents.id', 'molecules.doc_id')
        .leftJoin('doc_structures', 'doc_structures.id', 'molecules.structure_id')
        .select(['molecules.id', 'molecules.doc_id', 'molecules.source', 'molecules.ordinal', 'molecules.page', 'molecules.name', 'molecules.canonical_smiles', 'molecules.structure_id', 'doc_structures.bbox'])
        .where('molecules.name', 'is not', null)
        .where((eb) =>
          doc.folder_id
            ? eb.or([eb('molecules.doc_id', '=', docId), eb('kb_documents.folder_id', '=', doc.folder_id)])
            : eb.or([eb('molecules.doc_id', '=', docId), eb.and([eb('kb_documents.folder_id', 'is', null), eb('kb_documents.owner_id', '=', doc.owner_id)])]),
        )
        .where(docReadable(viewer.userId))
        .orderBy('molecules.id')
        .execute()
    : [];
  const structureOf = new Map<string, (typeof molecules)[number]>();
  for (const m of molecules) {
    const label = normaliseLabel(m.name ?? '');
    if (!label || !byLabel.has(label)) continue;
    const had = structureOf.get(label);
    if (!had || (had.doc_id !== docId && m.doc_id === docId)) structureOf.set(label, m);
  }
  const rows: SarRow[] = [...byLabel.entries()].map(([label, acts]) => {
    const m = structureOf.get(label);
    return {
      label,
      // A figure of this document: its structure row and the drawing's box on its page.
      structure_id: m && m.doc_id === docId ? (m.structure_id ?? null) : null,
      molecule_id: m?.id ?? null,
      smiles: m?.canonical_smiles ?? null,
      page: m && m.doc_id === docId ? m.page : null,
      bbox: m && m.doc_id === docId && m.bbox ? (JSON.parse(m.bbox) as [number, number, number, number]) : null,
      mol_key: m && m.source === 'sdf' ? `${m.doc_id}:${m.ordinal}` : null,
      activities: acts,
    };
  });
  return { doc_id: doc.id, doc_type: doc.type, title: doc.title, columns, rows, unlabelled };
}

/** A column's header: "CDK2 IC50 (nM)", "% inhibition at 10 μM". */
export function columnHeader(c: SarResult['columns'][number]): string {
  if (c.measure === 'inhibition') return `${c.target ? `${c.target} ` : ''}% inhibition${c.concentration ? ` at ${c.concentration}` : ''}`;
  return `${c.target ? `${c.target} ` : ''}${c.measure} (nM)`;
}

/** A cell: the activity's relation and value in nM (% for inhibition), as printed when it has no nM value. */
export function cellText(a: LinkedActivity): string {
  const rel = a.relation === '=' ? '' : a.relation;
  if (a.measure === 'inhibition') return `${rel}${a.value}`;
  return a.value_nm !== null ? `${rel}${a.value_nm}` : `${rel}${a.value}${a.unit ? ` ${a.unit}` : ''}`;
}

/** The cells of a row by column key (several activities of one column joined by "; "). */
function cellsOf(row: SarRow): Map<string, { text: string; pages: string }> {
  const out = new Map<string, { text: string; pages: string }>();
  for (const a of row.activities) {
    const key = columnKey(a);
    const had = out.get(key);
    const page = a.page === null ? '' : String(a.page);
    out.set(key, had ? { text: `${had.text}; ${cellText(a)}`, pages: [...new Set([...had.pages.split('; '), page])].filter(Boolean).join('; ') } : { text: cellText(a), pages: page });
  }
  return out;
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) || /^[=+\-@\t]/.test(value) ? `"${(/^[=+\-@\t]/.test(value) ? `'${value}` : value).replace(/"/g, '""')}"` : value);

/** The table as CSV (UTF-8 with a byte-order mark, so spreadsheet programs read Chinese): label, SMILES, then each measure and its page. */
export function sarCsv(sar: SarResult): string {
  const header = ['Label', 'SMILES', ...sar.columns.flatMap((c) => [columnHeader(c), `${columnHeader(c)} page`])];
  const lines = [header.map(csvCell).join(',')];
  for (const row of sar.rows) {
    const cells = cellsOf(row);
    lines.push([row.label, row.smiles ?? '', ...sar.columns.flatMap((c) => [cells.get(c.key)?.text ?? '', cells.get(c.key)?.pages ?? ''])].map(csvCell).join(','));
  }
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** An SDF data field name: letters, digits and underscores. */
const fieldName = (s: string) => s.replace(/[^A-Za-z0-9μ%]+/g, '_').replace(/μ/g, 'u').replace(/%/g, 'pct').replace(/^_+|_+$/g, '');
const sdfLine = (s: string) => s.replace(/[\r\n]+/g, ' ').replace(/^\$\$\$\$/, '$ $$$').slice(0, 200);

/** The rows with a structure as SDF records (molfiles from RDKit), the label as the title and each measure as a data field. */
export function sarSdf(sar: SarResult, molfiles: Map<string, string>): string {
  const out: string[] = [];
  for (const row of sar.rows) {
    const molfile = row.smiles ? molfiles.get(row.smiles) : undefined;
    if (!molfile) continue;
    const lines = molfile.replace(/\r\n/g, '\n').replace(/\n*$/, '\n').split('\n');
    lines[0] = sdfLine(row.label);
    const cells = cellsOf(row);
    const fields = [
      ['Label', row.label],
      ['SMILES', row.smiles ?? ''],
      ...sar.columns.flatMap((c) => {
        const cell = cells.get(c.key);
        return cell ? [[fieldName(columnHeader(c)), cell.text], [`${fieldName(columnHeader(c))}_page`, cell.pages]] : [];
      }),
    ].filter(([, v]) => v);
    out.push(`${lines.join('\n')}${fields.map(([k, v]) => `> <${k}>\n${sdfLine(v!)}\n`).join('\n')}\n$$$$\n`);
  }
  return out.join('');
}
