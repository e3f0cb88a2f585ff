import { ADMET_NOT_COMPUTED, type AdmetMolecule } from '../../../contract/admet';

/** One exported column: its header (SwissADME's wording, with the method) and its value. */
interface Column {
  header: string;
  /** SDF data field name (no spaces or angle brackets). */
  field: string;
  value: (m: AdmetMolecule) => string;
}

const num = (n: number) => String(n);
const list = (xs: string[]) => (xs.length ? xs.join('; ') : '');
const yesNo = (b: boolean) => (b ? 'Yes' : 'No');
const NOT_COMPUTED = '未计算';

const CLASS_NAMES: Record<AdmetMolecule['esol_class'], string> = {
  insoluble: 'Insoluble',
  poorly: 'Poorly soluble',
  moderately: 'Moderately soluble',
  soluble: 'Soluble',
  very: 'Very soluble',
  highly: 'Highly soluble',
};

/** The exported columns, grouped as SwissADME shows them. */
export const EXPORT_COLUMNS: Column[] = [
  { header: 'Molecule', field: 'Molecule', value: (m) => m.input },
  { header: 'Name', field: 'Name', value: (m) => m.name },
  { header: 'Canonical SMILES', field: 'Canonical_SMILES', value: (m) => m.smiles },
  { header: 'Formula', field: 'Formula', value: (m) => m.formula },
  { header: 'MW (g/mol)', field: 'MW', value: (m) => num(m.mw) },
  { header: '#Heavy atoms', field: 'Heavy_atoms', value: (m) => num(m.heavy_atoms) },
  { header: '#Aromatic heavy atoms', field: 'Aromatic_heavy_atoms', value: (m) => num(m.aromatic_heavy_atoms) },
  { header: 'Fraction Csp3', field: 'Fraction_Csp3', value: (m) => num(m.fraction_csp3) },
  { header: '#Rotatable bonds', field: 'Rotatable_bonds', value: (m) => num(m.rotatable_bonds) },
  { header: '#H-bond acceptors', field: 'HBA', value: (m) => num(m.hba) },
  { header: '#H-bond donors', field: 'HBD', value: (m) => num(m.hbd) },
  { header: 'MR (Wildman-Crippen)', field: 'MR', value: (m) => num(m.mr) },
  { header: 'TPSA (Ertl 2000, N,O)', field: 'TPSA', value: (m) => num(m.tpsa) },
  { header: 'TPSA (Ertl 2000, N,O,S,P)', field: 'TPSA_NOSP', value: (m) => num(m.tpsa_sp) },
  { header: 'Log Po/w (WLOGP)', field: 'WLOGP', value: (m) => num(m.wlogp) },
  { header: 'Log Po/w (MLOGP, Moriguchi)', field: 'MLOGP', value: (m) => num(m.mlogp) },
  ...ADMET_NOT_COMPUTED.map((name) => ({ header: `Log Po/w (${name})`, field: name.replace(/-/g, '_'), value: () => NOT_COMPUTED })),
  { header: 'Consensus Log Po/w (mean of WLOGP, MLOGP)', field: 'Consensus_LogP', value: (m) => num(m.consensus_logp) },
  { header: 'ESOL Log S (Delaney 2004)', field: 'ESOL_LogS', value: (m) => num(m.esol_log_s) },
  { header: 'ESOL Solubility (mg/ml)', field: 'ESOL_mg_ml', value: (m) => num(m.esol_mg_ml) },
  { header: 'ESOL Solubility (mol/l)', field: 'ESOL_mol_l', value: (m) => num(m.esol_mol_l) },
  { header: 'ESOL Class', field: 'ESOL_Class', value: (m) => CLASS_NAMES[m.esol_class] },
  { header: 'GI absorption (BOILED-Egg)', field: 'GI_absorption', value: (m) => (m.gi_absorption === 'high' ? 'High' : 'Low') },
  { header: 'BBB permeant (BOILED-Egg)', field: 'BBB_permeant', value: (m) => yesNo(m.bbb_permeant) },
  { header: 'log Kp (Potts & Guy, cm/s)', field: 'Log_Kp', value: (m) => num(m.log_kp) },
  { header: 'Lipinski #violations', field: 'Lipinski_violations', value: (m) => num(m.lipinski.length) },
  { header: 'Lipinski violated rules', field: 'Lipinski_rules', value: (m) => list(m.lipinski) },
  { header: 'Ghose violated rules', field: 'Ghose_rules', value: (m) => list(m.ghose) },
  { header: 'Veber violated rules', field: 'Veber_rules', value: (m) => list(m.veber) },
  { header: 'Egan violated rules', field: 'Egan_rules', value: (m) => list(m.egan) },
  { header: 'Muegge violated rules', field: 'Muegge_rules', value: (m) => list(m.muegge) },
  { header: 'Bioavailability Score (Abbott)', field: 'Bioavailability_Score', value: (m) => num(m.bioavailability_score) },
  { header: 'PAINS alerts', field: 'PAINS', value: (m) => list(m.pains) },
  { header: 'Brenk alerts', field: 'Brenk', value: (m) => list(m.brenk) },
  { header: 'Leadlikeness violated rules', field: 'Leadlikeness_rules', value: (m) => list(m.leadlikeness) },
  { header: 'Synthetic Accessibility (Ertl 2009)', field: 'SA_score', value: (m) => num(m.sa_score) },
  { header: 'QED (Bickerton 2012)', field: 'QED', value: (m) => num(m.qed) },
];

/** A CSV cell: quoted when needed; text that a spreadsheet would run as a formula gets a leading quote. */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) && !/^-?\d/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The table as CSV (UTF-8 with BOM so spreadsheet programs read the Chinese text). */
export function admetCsv(rows: AdmetMolecule[]): string {
  const lines = [EXPORT_COLUMNS.map((c) => csvCell(c.header)).join(',')];
  for (const m of rows) lines.push(EXPORT_COLUMNS.map((c) => csvCell(c.value(m))).join(','));
  return `\ufeff${lines.join('\r\n')}\r\n`;
}

/** One line of SDF text: no line breaks, no data-header lookalikes. */
const sdfLine = (s: string, max = 200) => s.replace(/[\r\n]+/g, ' ').replace(/^\$\$\$\$/, '$ $$$').slice(0, max);

/**
 * The table as an SD file: each molecule's molfile (2D) with every value as a data field.
 * `molfiles[i]` is the V2000/V3000 block of `rows[i]`.
 */
export function admetSdf(rows: AdmetMolecule[], molfiles: string[]): string {
  return rows
    .map((m, i) => {
      const block = molfiles[i]!.replace(/\r\n/g, '\n').replace(/\n*$/, '\n');
      const lines = block.split('\n');
      lines[0] = sdfLine(m.name || m.input, 80);
      // An empty value would read as the end of the data item: such fields (no violations, no alerts) are left out.
      const fields = EXPORT_COLUMNS.slice(1).flatMap((c) => {
        const value = sdfLine(c.value(m));
        return value ? [`> <${c.field}>\n${value}\n`] : [];
      });
      return `${lines.join('\n')}${fields.join('\n')}\n$$$$\n`;
    })
    .join('');
}
