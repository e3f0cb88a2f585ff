// A scan of rendered text for words of the other language. In Chinese, Latin words
// outside the scientific abbreviations and names a chemist reads as they are (each explained in a
// tooltip or a method line where it appears), and half-width brackets against Chinese text; in
// English, any Chinese character. Data (SMILES, formulas, file names, server messages) is skipped
// through `skip` selectors. Used by the card tests (@web/test-runner) and by the whole-site scan
// (tests/e2e/i18n-scan.spec.ts), which gathers the texts in the browser and judges them with
// `wrongLanguage` here.

/** Terms that stay as written in the Chinese interface, each group with the reason it stays. */
export const KEPT_GROUPS: { reason: string; terms: string }[] = [
  { reason: 'the product name', terms: 'CSAI Pro' },
  { reason: 'drug-discovery abbreviations a chemist reads untranslated (explained in a tooltip where shown)', terms: 'ADMET SMILES SMARTS InChIKey PAINS TPSA ESOL QED SA BBB GI Kp MW MR Csp3 RMSD IC50 Ki Kd NH OH HBA HBD RB AP logP logS' },
  { reason: 'names of methods, rules and their authors, cited as published (SwissADME’s method lines)', terms: 'Brenk Lipinski Ghose Veber Egan Muegge Abbott WLOGP MLOGP XLOGP3 iLOGP SILICOS-IT BOILED-Egg BOILED Egg Daina Zoete Delaney Ertl Wildman Crippen SwissADME Moriguchi Bickerton Schuffenhauer Potts Guy Martin Baell Holloway Teague Log log Po/w WLOGP<-0.4 MW<200 MW<250' },
  { reason: 'names of programs, databases and services the product runs or links to', terms: 'DOI PMID Node.js SQLite PostgreSQL onnxruntime Vina AutoDock OPSIN OSRA PLIP PDBFixer PubChem SureChEMBL RDKit Python MCP API LDAP OpenAI' },
  { reason: 'file formats and protocols, named as their files and programs name them', terms: 'CSV SDF PDB PDBQT PDF JPEG JPG PNG Markdown URL Authorization Bearer Streamable SSE HTTP HTTPS stdio' },
  { reason: 'units of measure', terms: 'kcal/mol kcal mol mg/mL mol/L cm/s nM KB MB GB CPU' },
  { reason: 'the browser’s language code, shown on the /test diagnostics page', terms: 'zh-CN en-US' },
  { reason: 'SPEC §9 prescribes the failed-request toast verbatim: "Error", then the address, "error!" and the message', terms: 'Error error' },
];

/** Every kept term (see KEPT_GROUPS for why each stays). */
export const KEPT_TERMS = new Set(KEPT_GROUPS.flatMap((g) => g.terms.split(' ')));

/** The visible text of a subtree, without the elements matching `skip`. */
function visibleText(root: ParentNode, skip: string): string[] {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
    if (node instanceof Element) {
      if (skip && node.matches(skip)) return;
      // A tooltip (an SVG <title>) is where an abbreviation is explained: it is not scanned.
      if (['STYLE', 'SCRIPT', 'TITLE'].includes(node.tagName.toUpperCase())) return;
    }
    for (const child of node.childNodes) walk(child);
    if (node instanceof Element && node.shadowRoot) walk(node.shadowRoot);
  };
  for (const child of root.childNodes) walk(child);
  return parts;
}

/**
 * Data inside a text of the interface, taken out before judging its language: quotations of a
 * document (“…”) and titles (《…》), e-mail addresses, web addresses, file paths and names, InChIKeys,
 * and structure strings (a token with brackets, bonds or ring closures: SMILES, SMARTS, formulas).
 */
const DATA_PATTERNS = [
  /“[^”]*”/g,
  /《[^》]*》/g,
  /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g,
  /https?:\/\/[^\s，。；）]+/g,
  /(?<![\w])\/[\w./@-]+/g,
  /[\w.-]+\.(?:pdf|sdf|pdb|pdbqt|csv|png|jpe?g|md|txt|mol2?|xlsx?|docx?|zip)\b/gi,
  /\b[A-Z]{14}-[A-Z]{10}-[A-Z]\b/g,
  /[A-Za-z0-9@+\-[\]()=#$/\\%.:*~]*[()=#[\]@\\][A-Za-z0-9@+\-[\]()=#$/\\%.:*~]*/g,
];

/** A text with its data (see DATA_PATTERNS) blanked out. */
export function withoutData(text: string): string {
  return DATA_PATTERNS.reduce((t, re) => t.replace(re, (m) => ((m.match(/[A-Za-z\u3400-\u9fff]/g)?.length ?? 0) >= 2 ? ' ' : m)), text);
}

/** Words of the other language in a list of texts shown to the reader (empty when there are none). */
export function wrongLanguage(texts: string[], lang: 'zh' | 'en', kept: ReadonlySet<string> = KEPT_TERMS): string[] {
  const nodes = texts.map(withoutData);
  const text = nodes.join('\n');
  if (lang === 'en') return [...new Set(text.match(/[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]+/g) ?? [])];
  // Original names kept beside their Chinese description, in full-width brackets after it, are fine.
  const plain = nodes.map((n) => n.replace(/[\u4e00-\u9fff]（[^）]*）/g, ''));
  // A token with a digit is an identifier, not prose: a formula (C9H8O4), a PDB code (5DPV), a residue (A:401).
  const words = (plain.join('\n').match(/[A-Za-z0-9]*[A-Za-z][A-Za-z0-9_/<>.+-]*[A-Za-z0-9]|[A-Za-z]/g) ?? []).filter((w) => w.length > 1 && !kept.has(w) && !/\d/.test(w));
  // Half-width brackets against Chinese text, within one text.
  const brackets = plain.flatMap((n) => n.match(/[\u4e00-\u9fff]\s*[()]|[()]\s*[\u4e00-\u9fff]/g) ?? []);
  return [...new Set([...words, ...brackets])];
}

/** Words of the other language in the rendered subtree (empty when there are none). */
export function untranslated(root: ParentNode, lang: 'zh' | 'en', skip = ''): string[] {
  return wrongLanguage(visibleText(root, skip), lang);
}
