/**
 * Real drugs with the values a chemist can check: RDKit's canonical SMILES, the Hill formula and
 * the heavy-atom count (formulae as in PubChem).
 */
export interface Drug {
  name: string;
  smiles: string;
  canonical: string;
  formula: string;
  heavyAtoms: number;
  bonds: number;
  /** Heavy atoms other than carbon: each gets a coloured label in the drawing. */
  labelled: number;
  /** Hydrogens RDKit draws explicitly (on stereo centres at ring fusions), each with a bond and a label. */
  drawnHydrogens?: number;
}

export const DRUGS: Drug[] = [
  { name: 'aspirin', smiles: 'CC(=O)Oc1ccccc1C(=O)O', canonical: 'CC(=O)Oc1ccccc1C(=O)O', formula: 'C9H8O4', heavyAtoms: 13, bonds: 13, labelled: 4 },
  { name: 'caffeine', smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', canonical: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', formula: 'C8H10N4O2', heavyAtoms: 14, bonds: 15, labelled: 6 },
  { name: 'ibuprofen', smiles: 'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O', canonical: 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', formula: 'C13H18O2', heavyAtoms: 15, bonds: 15, labelled: 2 },
  { name: 'paracetamol', smiles: 'CC(=O)NC1=CC=C(C=C1)O', canonical: 'CC(=O)Nc1ccc(O)cc1', formula: 'C8H9NO2', heavyAtoms: 11, bonds: 11, labelled: 3 },
  {
    name: 'imatinib',
    smiles: 'CC1=C(C=C(C=C1)NC(=O)C2=CC=C(C=C2)CN3CCN(CC3)C)NC4=NC=CC(=N4)C5=CN=CC=C5',
    canonical: 'Cc1ccc(NC(=O)c2ccc(CN3CCN(C)CC3)cc2)cc1Nc1nccc(-c2cccnc2)n1',
    formula: 'C29H31N7O',
    heavyAtoms: 37,
    bonds: 41,
    labelled: 8,
  },
  {
    name: 'atorvastatin',
    smiles: 'CC(C)C1=C(C(=C(N1CC[C@H](C[C@H](CC(=O)O)O)O)C2=CC=C(C=C2)F)C3=CC=CC=C3)C(=O)NC4=CC=CC=C4',
    canonical: 'CC(C)c1c(C(=O)Nc2ccccc2)c(-c2ccccc2)c(-c2ccc(F)cc2)n1CC[C@@H](O)C[C@@H](O)CC(=O)O',
    formula: 'C33H35FN2O5',
    heavyAtoms: 41,
    bonds: 44,
    labelled: 8,
  },
  {
    name: 'penicillin G',
    smiles: 'CC1([C@@H](N2[C@H](S1)[C@@H](C2=O)NC(=O)CC3=CC=CC=C3)C(=O)O)C',
    canonical: 'CC1(C)S[C@@H]2[C@H](NC(=O)Cc3ccccc3)C(=O)N2[C@H]1C(=O)O',
    formula: 'C16H18N2O4S',
    heavyAtoms: 23,
    bonds: 25,
    labelled: 7,
    drawnHydrogens: 1,
  },
  {
    name: 'morphine',
    smiles: 'CN1CC[C@]23[C@@H]4[C@H]1CC5=C2C(=C(C=C5)O)O[C@H]3[C@H](C=C4)O',
    canonical: 'CN1CC[C@]23c4c5ccc(O)c4O[C@H]2[C@@H](O)C=C[C@H]3[C@H]1C5',
    formula: 'C17H19NO3',
    heavyAtoms: 21,
    bonds: 25,
    labelled: 4,
    drawnHydrogens: 3,
  },
  // RDKit's palette draws sodium in black: two coloured labels (O, O⁻) and a black "Na+".
  { name: 'sodium acetate (a salt)', smiles: 'CC(=O)[O-].[Na+]', canonical: 'CC(=O)[O-].[Na+]', formula: 'C2H3NaO2', heavyAtoms: 5, bonds: 3, labelled: 2, drawnHydrogens: 0 },
  { name: 'metformin hydrochloride', smiles: 'CN(C)C(=N)N=C(N)N.Cl', canonical: 'CN(C)C(=N)N=C(N)N.Cl', formula: 'C4H12ClN5', heavyAtoms: 10, bonds: 8, labelled: 6 },
  { name: 'indole (aromatic heterocycle)', smiles: 'C1=CC=C2C(=C1)C=CN2', canonical: 'c1ccc2[nH]ccc2c1', formula: 'C8H7N', heavyAtoms: 9, bonds: 10, labelled: 1 },
  { name: 'pyridinium (charged heterocycle)', smiles: 'c1cc[nH+]cc1', canonical: 'c1cc[nH+]cc1', formula: 'C5H6N+', heavyAtoms: 6, bonds: 6, labelled: 1 },
];
