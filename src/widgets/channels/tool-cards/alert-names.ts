// Chinese descriptions of the structural alerts the ADMET card lists: Brenk's 105
// unwanted substructures by name, PAINS families (Baell & Holloway 2010) from the words of their
// names. The original name stays beside the description (it is what the literature and RDKit use).

/** Brenk et al. 2008, by the names RDKit's FilterCatalog gives them. */
const BRENK: Record<string, string> = {
  '>_2_ester_groups': '多于两个酯基',
  '2-halo_pyridine': '2-卤代吡啶',
  acid_halide: '酰卤',
  'acyclic_C=C-O': '非环烯醇（醚）',
  acyl_cyanide: '酰基氰',
  acyl_hydrazine: '酰肼',
  aldehyde: '醛基',
  Aliphatic_long_chain: '脂肪长链',
  alkyl_halide: '卤代烷',
  amidotetrazole: '酰胺基四唑',
  aniline: '苯胺',
  azepane: '氮杂环庚烷',
  Azido_group: '叠氮基',
  Azo_group: '偶氮基',
  azocane: '氮杂环辛烷',
  benzidine: '联苯胺',
  'beta-keto/anhydride': 'β-二羰基／酸酐',
  biotin_analogue: '生物素类似物',
  'Carbo_cation/anion': '碳正离子／碳负离子',
  catechol: '邻苯二酚',
  charged_oxygen_or_sulfur_atoms: '带电荷的氧或硫原子',
  chinone_1: '对醌',
  chinone_2: '邻醌',
  conjugated_nitrile_group: '共轭腈基',
  crown_ether: '冠醚',
  cumarine: '香豆素',
  cyanamide: '氰胺',
  'cyanate_/aminonitrile_/thiocyanate': '氰酸酯／氨基腈／硫氰酸酯',
  cyanohydrins: '氰醇',
  cycloheptane_1: '环庚烷',
  cycloheptane_2: '苯并环庚烷',
  cyclooctane_1: '环辛烷',
  cyclooctane_2: '苯并环辛烷',
  diaminobenzene_1: '邻苯二胺',
  diaminobenzene_2: '间苯二胺',
  diaminobenzene_3: '对苯二胺',
  diazo_group: '重氮基',
  diketo_group: '1,2-二羰基',
  disulphide: '二硫键',
  enamine: '烯胺',
  ester_of_HOBT: 'HOBt 活性酯',
  four_member_lactones: '四元环内酯',
  halogenated_ring_1: '多卤代芳环',
  halogenated_ring_2: '多卤代芳环',
  heavy_metal: '重金属或类金属原子',
  'het-C-het_not_in_ring': '非环的杂原子-碳-杂原子',
  hydantoin: '乙内酰脲',
  hydrazine: '肼',
  hydroquinone: '对苯二酚',
  hydroxamic_acid: '异羟肟酸',
  imine_1: '亚胺',
  imine_2: '脒／亚胺酯',
  iodine: '碘原子',
  isocyanate: '异氰酸酯',
  isolated_alkene: '孤立烯烃',
  ketene: '烯酮',
  'methylidene-1,3-dithiole': '亚甲基-1,3-二硫杂环戊烯',
  Michael_acceptor_1: '迈克尔受体（α,β-不饱和羰基）',
  Michael_acceptor_2: '迈克尔受体（炔酮）',
  Michael_acceptor_3: '迈克尔受体（炔砜）',
  Michael_acceptor_4: '迈克尔受体（亚甲基二羰基）',
  Michael_acceptor_5: '迈克尔受体（炔酸酯）',
  N_oxide: 'N-氧化物',
  'N-acyl-2-amino-5-mercapto-1,3,4-_thiadiazole': 'N-酰基-2-氨基-5-巯基-1,3,4-噻二唑',
  'N-C-halo': 'N-C-卤',
  'N-halo': 'N-卤',
  'N-hydroxyl_pyridine': 'N-羟基吡啶',
  nitro_group: '硝基',
  'N-nitroso': 'N-亚硝基',
  oxime_1: '肟',
  oxime_2: '肟酯',
  'Oxygen-nitrogen_single_bond': '氧-氮单键',
  Perfluorinated_chain: '全氟链',
  peroxide: '过氧键',
  phenol_ester: '酚酯',
  phenyl_carbonate: '苯基碳酸酯',
  phosphor: '磷原子',
  phthalimide: '邻苯二甲酰亚胺',
  Polycyclic_aromatic_hydrocarbon_1: '多环芳烃',
  Polycyclic_aromatic_hydrocarbon_2: '多环芳烃',
  Polycyclic_aromatic_hydrocarbon_3: '多环芳烃',
  polyene: '多烯',
  quaternary_nitrogen_1: '季氮',
  quaternary_nitrogen_2: '季铵',
  quaternary_nitrogen_3: '季氮（累积双键）',
  saponine_derivative: '皂苷类结构',
  silicon_halogen: '硅-卤键',
  stilbene: '二苯乙烯',
  sulfinic_acid: '亚磺酸',
  Sulfonic_acid_1: '磺酸酯',
  Sulfonic_acid_2: '磺酸',
  sulfonyl_cyanide: '磺酰氰',
  sulfur_oxygen_single_bond: '硫-氧单键',
  sulphate: '硫酸酯',
  sulphur_nitrogen_single_bond: '硫-氮单键',
  Thiobenzothiazole_1: '2-巯基苯并噻唑',
  thiobenzothiazole_2: '苯并噻唑-2-硫酮',
  Thiocarbonyl_group: '硫羰基',
  thioester: '硫酯',
  thiol_1: '硫醇负离子',
  thiol_2: '巯基',
  'Three-membered_heterocycle': '三元杂环',
  triflate: '三氟甲磺酸酯',
  'triphenyl_methyl-silyl': '三苯甲基／三苯硅基',
  triple_bond: '碳碳三键',
};

/** Words of PAINS family names (anil_di_alk, ene_rhod, hzone_phenol …). */
const PAINS_WORDS: Record<string, string> = {
  acyl: '酰基', het: '杂环', amino: '氨基', acridine: '吖啶', anil: '苯胺', alk: '烷基', no: '无', di: '二',
  NH: 'NH', OC: '烷氧基', OH: '羟基', bim: '苯并咪唑', ene: '烯', indane: '茚满', thio: '含硫', coum: '香豆素',
  dhp: '二氢吡啶', furan: '呋喃', indol: '吲哚', anisol: '苯甲醚', anisole: '苯甲醚', anthranil: '邻氨基苯甲', acid: '酸',
  amide: '酰胺', one: '酮', azo: '偶氮', azulene: '薁', catechol: '邻苯二酚', colchicine: '秋水仙碱', coumarin: '香豆素',
  cyanamide: '氰胺', cyano: '氰基', imine: '亚胺', keto: '酮', misc: '其他', pyridone: '吡啶酮', amidine: '脒',
  CN: '氰基', bis: '双', diazox: '二氮氧化物', sulfon: '砜', dyes3A: '染料类', dyes5A: '染料类', dyes7A: '染料类',
  five: '五元环', six: '六元环', quin: '醌', methide: '甲基化物', rhod: '罗丹宁', ester: '酯', hal: '卤', yne: '炔',
  inium: '鎓', pyrazole: '吡唑', indole: '吲哚', imidazole: '咪唑', mannich: '曼尼希碱', Da: '', Db: '',
  hydropyridone: '氢化吡啶酮', imidate: '亚胺酯', NH2: '氨基', tetrazine: '四嗪', pyraz: '吡嗪', pyridiniums: '吡啶鎓',
  urea: '脲', pyr: '吡啶', hydroquin: '对苯二酚', hzide: '酰肼', naphth: '萘', hzone: '腙', acyl_misc: '酰基',
  naphthol: '萘酚', anthran: '邻氨基苯甲酸', enamin: '烯胺', phenol: '苯酚', phenone: '苯酮', pipzn: '哌嗪',
  pyrrol: '吡咯', thiophene: '噻吩', isatin: '靛红', fives: '五元环', sixes: '六元环', '3yl': '3-基', beta: 'β',
  gamma: 'γ', zone: '腙', aminal: '缩醛胺', aminoacid: '氨基酸', anilide: '酰苯胺', cyclopropane: '环丙烷',
  naphthimidazole: '萘并咪唑', phthal: '邻苯二甲', pyridine: '吡啶', benz: '苯并', thiaz: '噻唑', stilbene: '二苯乙烯',
  trityl: '三苯甲基', melamine: '三聚氰胺', sulfite: '亚硫酸酯', phthalimide: '邻苯二甲酰亚胺', pyrrole: '吡咯',
  quinone: '醌', sat: '饱和', steroid: '甾体', styrene: '苯乙烯', sulfonamide: '磺酰胺', tert: '叔', butyl: '丁基',
  tetrazole: '四唑', thiazol: '噻唑', SC: '硫醚', thiazole: '噻唑', amine: '胺', aldehyd: '醛', carbam: '氨基甲酸',
  carbonate: '碳酸酯', dibenzo: '二苯并', est: '酯', imide: '酰亚胺', ium: '鎓', ketone: '酮', thiomorph: '硫代吗啉',
  hydroxy: '羟基', Aa: '', Ab: '', N: '氮', '5': '五元', '6': '六元', '55': '', '65': '', '66': '',
  '565': '', '465': '', '666': '', '6666': '', '76': '', '656a': '', '656b': '', '656c': '', '665': '', '67': '', '676': '',
  '5A': '', '5B': '', '5C': '', '5D': '', '65A': '',
};

/** A PAINS family name in Chinese words ("ene_rhod_A" → "烯·罗丹宁"), or undefined when a word is unknown. */
function painsWords(name: string): string | undefined {
  const words = name.replace(/\(\d+\)$/, '').split('_');
  const out: string[] = [];
  for (const w of words) {
    if (/^[A-Z]$/.test(w)) continue; // the family's variant letter
    const zh = PAINS_WORDS[w];
    if (zh === undefined) return undefined;
    if (zh && out[out.length - 1] !== zh) out.push(zh);
  }
  return out.length ? out.join('·') : undefined;
}

/**
 * How the card names an alert: in Chinese, its description with the original name in brackets
 * ("酚酯（phenol_ester）"; a PAINS family: "PAINS 干扰结构：醌（quinone_A）"); in English the name.
 */
export function alertLabel(kind: 'pains' | 'brenk', name: string, language: string | undefined): string {
  if (language?.startsWith('en')) return name;
  const zh = kind === 'brenk' ? BRENK[name] : painsWords(name);
  return zh ? `${zh}（${name}）` : name;
}
