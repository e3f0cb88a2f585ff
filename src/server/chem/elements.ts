/** Element symbols by atomic number (index 0 is RDKit's dummy atom `*`). */
export const ELEMENT_SYMBOLS: readonly string[] = [
  '*', 'H', 'He', 'Li', 'Be', 'B', 'C', 'N', 'O', 'F', 'Ne', 'Na', 'Mg', 'Al', 'Si', 'P', 'S', 'Cl', 'Ar', 'K', 'Ca',
  'Sc', 'Ti', 'V', 'Cr', 'Mn', 'Fe', 'Co', 'Ni', 'Cu', 'Zn', 'Ga', 'Ge', 'As', 'Se', 'Br', 'Kr', 'Rb', 'Sr', 'Y', 'Zr',
  'Nb', 'Mo', 'Tc', 'Ru', 'Rh', 'Pd', 'Ag', 'Cd', 'In', 'Sn', 'Sb', 'Te', 'I', 'Xe', 'Cs', 'Ba', 'La', 'Ce', 'Pr', 'Nd',
  'Pm', 'Sm', 'Eu', 'Gd', 'Tb', 'Dy', 'Ho', 'Er', 'Tm', 'Yb', 'Lu', 'Hf', 'Ta', 'W', 'Re', 'Os', 'Ir', 'Pt', 'Au', 'Hg',
  'Tl', 'Pb', 'Bi', 'Po', 'At', 'Rn', 'Fr', 'Ra', 'Ac', 'Th', 'Pa', 'U', 'Np', 'Pu', 'Am', 'Cm', 'Bk', 'Cf', 'Es', 'Fm',
  'Md', 'No', 'Lr', 'Rf', 'Db', 'Sg', 'Bh', 'Hs', 'Mt', 'Ds', 'Rg', 'Cn', 'Nh', 'Fl', 'Mc', 'Lv', 'Ts', 'Og',
];

/**
 * A molecular formula in Hill order (C, then H, then the rest alphabetically; without carbon all
 * alphabetically), with the net charge appended as RDKit's CalcMolFormula writes it (`+`, `-2`).
 */
export function hillFormula(counts: ReadonlyMap<string, number>, netCharge: number): string {
  const symbols = [...counts.keys()].filter((s) => (counts.get(s) ?? 0) > 0);
  const hasCarbon = counts.has('C');
  symbols.sort((a, b) => {
    if (hasCarbon) {
      const rank = (s: string) => (s === 'C' ? 0 : s === 'H' ? 1 : 2);
      if (rank(a) !== rank(b)) return rank(a) - rank(b);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  });
  let formula = symbols.map((s) => (counts.get(s) === 1 ? s : `${s}${counts.get(s)}`)).join('');
  if (netCharge !== 0) {
    const sign = netCharge > 0 ? '+' : '-';
    formula += Math.abs(netCharge) === 1 ? sign : `${sign}${Math.abs(netCharge)}`;
  }
  return formula;
}
