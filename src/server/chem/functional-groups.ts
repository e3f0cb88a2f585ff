/**
 * Functional groups a question may name (Chinese and English), as SMARTS for a substructure search:
 * the activity questions' group (chemdocs/activity-answer.ts) and the structures a question asks
 * for among a document's molecules (retrieval/structures.ts). The first group a question names wins
 * where one regex holds another's words (磺酰胺 before 酰胺).
 */
export const FUNCTIONAL_GROUPS: Array<{ words: RegExp; name: string; smarts: string }> = [
  { words: /磺酰胺|sulfonamide|sulphonamide/i, name: '磺酰胺', smarts: '[#16X4](=O)(=O)[#7]' },
  { words: /磺酸(?!酯)|sulfonic acid|sulphonic acid|SO3H/i, name: '磺酸', smarts: '[SX4](=O)(=O)[OX2H1,OX1-]' },
  { words: /脲|urea/i, name: '脲', smarts: '[#7][CX3](=O)[#7]' },
  { words: /三氟甲基|trifluoromethyl|CF3/i, name: '三氟甲基', smarts: '[CX4](F)(F)F' },
  { words: /正?丁氧基|n-?butoxy|butoxy/i, name: '丁氧基', smarts: '[CH3][CH2][CH2][CH2]O' },
  { words: /环丙基|cyclopropyl/i, name: '环丙基', smarts: '[CX4]1[CX4][CX4]1' },
  { words: /砜(?!酰)|sulfone|sulphone/i, name: '砜', smarts: '[#6][SX4](=O)(=O)[#6]' },
  { words: /噻唑|thiazole|thiazol/i, name: '噻唑', smarts: 'c1cscn1' },
  { words: /噻吩|thiophene/i, name: '噻吩', smarts: 'c1ccsc1' },
  { words: /呋喃|furan/i, name: '呋喃', smarts: 'c1ccoc1' },
  { words: /咪唑|imidazole/i, name: '咪唑', smarts: 'c1cncn1' },
  { words: /吡唑|pyrazole/i, name: '吡唑', smarts: 'c1cnnc1' },
  { words: /醛|aldehyde/i, name: '醛', smarts: '[CX3H1](=O)[#6]' },
  { words: /酮(?!类)|ketone/i, name: '酮', smarts: '[#6][CX3](=O)[#6]' },
  { words: /酰胺|amide/i, name: '酰胺', smarts: '[CX3](=O)[#7]' },
  { words: /羧酸|carboxylic acid/i, name: '羧酸', smarts: '[CX3](=O)[OX2H1,OX1-]' },
  { words: /酯|\besters?\b/i, name: '酯', smarts: '[#6][CX3](=O)[OX2][#6]' },
  { words: /氰基|腈|nitrile|cyano/i, name: '氰基', smarts: 'C#N' },
  { words: /硝基|nitro(?!gen)/i, name: '硝基', smarts: '[N+](=O)[O-]' },
  { words: /哌嗪|piperazine/i, name: '哌嗪', smarts: 'N1CCNCC1' },
  { words: /吗啉|morpholine/i, name: '吗啉', smarts: 'N1CCOCC1' },
  { words: /哌啶|piperidine/i, name: '哌啶', smarts: 'N1CCCCC1' },
  { words: /嘧啶|pyrimidine/i, name: '嘧啶', smarts: 'c1ncncc1' },
  { words: /吡啶|pyridine/i, name: '吡啶', smarts: 'n1ccccc1' },
  { words: /吲哚|indole/i, name: '吲哚', smarts: 'c1ccc2[nH0,nH1]ccc2c1' },
  { words: /嘌呤|purine/i, name: '嘌呤', smarts: 'c1ncc2nc[nX3]c2n1' },
  { words: /苯环|phenyl|benzene/i, name: '苯环', smarts: 'c1ccccc1' },
  { words: /氟|fluor(?!esc)/i, name: '氟', smarts: '[F]' },
  { words: /氯|chlor/i, name: '氯', smarts: '[Cl]' },
  { words: /羟基|hydroxy/i, name: '羟基', smarts: '[OX2H][#6]' },
];
