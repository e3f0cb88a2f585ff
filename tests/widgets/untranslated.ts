// Issue 32 §2: a scan of rendered text for words of the other language. In Chinese, Latin words
// outside the scientific abbreviations and names a chemist reads as they are (each explained in a
// tooltip or a method line where it appears), and half-width brackets against Chinese text; in
// English, any Chinese character. Data (SMILES, formulas, file names, server messages) is skipped
// through `skip` selectors.

/** Terms that stay as written in the Chinese interface: abbreviations, method and program names, units. */
export const KEPT_TERMS = new Set(
  (
    'ADMET SMILES InChIKey PAINS Brenk Lipinski Ghose Veber Egan Muegge Abbott WLOGP MLOGP XLOGP3 iLOGP SILICOS-IT TPSA ESOL ' +
    'BOILED-Egg BOILED Egg QED SA BBB GI Kp MW Log log Po/w Csp3 CSV SDF PDB PDBQT Vina AutoDock RMSD CPU kcal/mol kcal mol ' +
    'mg/mL mol/L OPSIN PubChem RDKit Python MCP API LDAP Daina Zoete Delaney Ertl Wildman Crippen Moriguchi Bickerton Schuffenhauer ' +
    'cm/s Potts Guy Ki IC50 MR NH OH WLOGP<-0.4 MW<200 MW<250 CSAI Pro PDF JPEG JPG PNG Markdown URL Bearer SSE HTTP HTTPS stdio KB MB GB'
  ).split(' '),
);

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

/** Words of the other language in the rendered subtree (empty when there are none). */
export function untranslated(root: ParentNode, lang: 'zh' | 'en', skip = ''): string[] {
  const nodes = visibleText(root, skip);
  const text = nodes.join('\n');
  if (lang === 'en') return [...new Set(text.match(/[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]+/g) ?? [])];
  // Original names kept beside their Chinese description, in full-width brackets after it, are fine.
  const plain = nodes.map((n) => n.replace(/[\u4e00-\u9fff]（[^）]*）/g, ''));
  // A token with a digit is an identifier, not prose: a formula (C9H8O4), a PDB code (5DPV), a residue (A:401).
  const words = (plain.join('\n').match(/[A-Za-z0-9]*[A-Za-z][A-Za-z0-9_/<>.+-]*[A-Za-z0-9]|[A-Za-z]/g) ?? []).filter((w) => w.length > 1 && !KEPT_TERMS.has(w) && !/\d/.test(w));
  // Half-width brackets against Chinese text, within one text.
  const brackets = plain.flatMap((n) => n.match(/[\u4e00-\u9fff]\s*[()]|[()]\s*[\u4e00-\u9fff]/g) ?? []);
  return [...new Set([...words, ...brackets])];
}
