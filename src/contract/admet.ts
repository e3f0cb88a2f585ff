import { z } from 'zod';
import { MOL_LIMITS } from './mol';

/** Limits of an ADMET request (1–50 molecules). */
export const ADMET_LIMITS = {
  /** Molecules per request. */
  molecules: 50,
  /** Characters of one SMILES (as the mol calls). */
  smilesLength: MOL_LIMITS.smilesLength,
  /** Characters of one chemical name. */
  nameLength: 200,
} as const;

const moleculeText = z
  .string({ error: '每个分子必须是 SMILES 字符串' })
  .trim()
  .min(1, '分子不能为空')
  .max(ADMET_LIMITS.smilesLength, `单个分子不能超过${ADMET_LIMITS.smilesLength}个字符`);

const smilesList = z
  .array(moleculeText, { error: 'smiles 必须是字符串数组' })
  .min(1, '请至少提供 1 个分子')
  .max(ADMET_LIMITS.molecules, `单次最多计算 ${ADMET_LIMITS.molecules} 个分子，请分批提交`);

/**
 * POST /api/v1/mol/admet: the ADMET table of up to 50 SMILES.
 * @example { smiles: ['CC(=O)Oc1ccccc1C(=O)O'] }
 */
export const admetBody = z.object({ smiles: smilesList }, { error: '请求体必须是 JSON 对象' }).strict();
export type AdmetBody = z.infer<typeof admetBody>;

/** Export formats of the table. */
export const ADMET_EXPORT_FORMATS = ['csv', 'sdf'] as const;

/**
 * POST /api/v1/mol/admet/export: the same table as a CSV or SDF download.
 * @example { smiles: ['CCO'], format: 'sdf' }
 */
export const admetExportBody = z
  .object(
    {
      smiles: smilesList,
      format: z.enum(ADMET_EXPORT_FORMATS, { error: '导出格式必须是 csv 或 sdf' }),
      /** Names to write beside the molecules (e.g. the SDF record names of the table), same order. */
      names: z.array(z.string({ error: '名称必须是字符串' }).max(ADMET_LIMITS.nameLength, `名称不能超过${ADMET_LIMITS.nameLength}个字符`)).max(ADMET_LIMITS.molecules).optional(),
    },
    { error: '请求体必须是 JSON 对象' },
  )
  .strict();
export type AdmetExportBody = z.infer<typeof admetExportBody>;

/**
 * Input of the `admet` tool: SMILES or chemical names; the molecules of an SDF document attached to
 * the question are added by the tool itself.
 * @example { molecules: ['阿司匹林', 'CCO'] }
 */
export const admetToolInput = z
  .object(
    {
      molecules: z
        .array(moleculeText, { error: 'molecules 必须是字符串数组' })
        .max(ADMET_LIMITS.molecules, `单次最多计算 ${ADMET_LIMITS.molecules} 个分子，请分批提交`)
        .default([])
        .describe('要计算的分子：SMILES 或化合物名称（中文、英文、IUPAC 名均可），最多 50 个'),
    },
    { error: '参数必须是 JSON 对象' },
  )
  .strict();
export type AdmetToolInput = z.infer<typeof admetToolInput>;

/** ESOL solubility classes (SwissADME's log S scale). */
export const SOLUBILITY_CLASSES = ['insoluble', 'poorly', 'moderately', 'soluble', 'very', 'highly'] as const;

/** Where a molecule of the table came from. */
export const ADMET_SOURCES = ['smiles', 'name', 'sdf'] as const;

/** One molecule's row: SwissADME's groups, each figure by the method named in ADMET_METHODS. */
export const admetMolecule = z.object({
  input: z.string(),
  name: z.string(),
  source: z.enum(ADMET_SOURCES),
  smiles: z.string(),
  // Physicochemical properties
  formula: z.string(),
  mw: z.number(),
  heavy_atoms: z.number().int(),
  aromatic_heavy_atoms: z.number().int(),
  fraction_csp3: z.number(),
  rotatable_bonds: z.number().int(),
  hba: z.number().int(),
  hbd: z.number().int(),
  mr: z.number(),
  tpsa: z.number(),
  tpsa_sp: z.number(),
  // Lipophilicity
  wlogp: z.number(),
  mlogp: z.number(),
  consensus_logp: z.number(),
  // Water solubility
  esol_log_s: z.number(),
  esol_mg_ml: z.number(),
  esol_mol_l: z.number(),
  esol_class: z.enum(SOLUBILITY_CLASSES),
  // Pharmacokinetics
  gi_absorption: z.enum(['high', 'low']),
  bbb_permeant: z.boolean(),
  log_kp: z.number(),
  // Drug-likeness: the violated rules of each filter (empty = passes)
  lipinski: z.array(z.string()),
  ghose: z.array(z.string()),
  veber: z.array(z.string()),
  egan: z.array(z.string()),
  muegge: z.array(z.string()),
  bioavailability_score: z.number(),
  // Medicinal chemistry
  pains: z.array(z.string()),
  brenk: z.array(z.string()),
  leadlikeness: z.array(z.string()),
  sa_score: z.number(),
  qed: z.number(),
});
export type AdmetMolecule = z.infer<typeof admetMolecule>;

/** The table: one row per molecule, and notes (e.g. an SDF cut to the first 50 molecules). */
export const admetResult = z.object({
  molecules: z.array(admetMolecule),
  notes: z.array(z.string()),
});
export type AdmetResult = z.infer<typeof admetResult>;

/** Predictors SwissADME shows that this server does not compute: shown as "未计算", never guessed. */
export const ADMET_NOT_COMPUTED = ['XLOGP3', 'iLOGP', 'SILICOS-IT'] as const;

/** Keys of the numeric and text columns, in table order. */
export type AdmetField = Exclude<keyof AdmetMolecule, 'input' | 'name' | 'source' | 'smiles'>;

/**
 * How each figure is computed and where its thresholds come from (shown beside the table, in the
 * CSV header notes and in SDF property names' documentation).
 */
export const ADMET_METHODS: Record<AdmetField, string> = {
  formula: 'RDKit (Hill order)',
  mw: 'RDKit average molecular weight (g/mol)',
  heavy_atoms: 'RDKit',
  aromatic_heavy_atoms: 'RDKit aromaticity model',
  fraction_csp3: 'RDKit FractionCSP3',
  rotatable_bonds: 'RDKit NumRotatableBonds (strict)',
  hba: 'RDKit NumHBA',
  hbd: 'RDKit NumHBD',
  mr: 'Wildman & Crippen 1999 (RDKit CrippenMR)',
  tpsa: 'Ertl et al. 2000, N and O (RDKit)',
  tpsa_sp: 'Ertl et al. 2000, N, O, S and P (as SwissADME)',
  wlogp: 'WLOGP: Wildman & Crippen 1999 (RDKit CrippenClogP)',
  mlogp: 'MLOGP: Moriguchi et al. 1992/1994, 13-parameter topological method',
  consensus_logp: 'Mean of WLOGP and MLOGP (XLOGP3, iLOGP, SILICOS-IT not computed)',
  esol_log_s: 'ESOL: Delaney 2004, logS = 0.16 - 0.63 logP - 0.0062 MW + 0.066 RB - 0.74 AP, with WLOGP as logP',
  esol_mg_ml: 'ESOL solubility (mg/mL)',
  esol_mol_l: 'ESOL solubility (mol/L)',
  esol_class: 'SwissADME log S scale: insoluble < -10 < poorly < -6 < moderately < -4 < soluble < -2 < very < 0 < highly',
  gi_absorption: 'BOILED-Egg: Daina & Zoete 2016, white ellipse (WLOGP × TPSA with S, P)',
  bbb_permeant: 'BOILED-Egg: Daina & Zoete 2016, yolk ellipse (WLOGP × TPSA with S, P)',
  log_kp: 'Potts & Guy 1992: log Kp (cm/s) = 0.71 logP - 0.0061 MW - 6.3, with WLOGP as logP',
  lipinski: 'Lipinski et al. 1997 (Pfizer): MW ≤ 500, MLOGP ≤ 4.15, N or O ≤ 10, NH or OH ≤ 5',
  ghose: 'Ghose et al. 1999 (Amgen): 160 ≤ MW ≤ 480, -0.4 ≤ WLOGP ≤ 5.6, 40 ≤ MR ≤ 130, 20 ≤ atoms ≤ 70',
  veber: 'Veber et al. 2002 (GSK): rotatable bonds ≤ 10, TPSA ≤ 140',
  egan: 'Egan et al. 2000 (Pharmacia): WLOGP ≤ 5.88, TPSA ≤ 131.6',
  muegge: 'Muegge et al. 2001 (Bayer): 200 ≤ MW ≤ 600, -2 ≤ logP ≤ 5 (WLOGP for XLOGP3), TPSA ≤ 150, rings ≤ 7, C > 4, heteroatoms > 1, rotatable bonds ≤ 15, HBA ≤ 10, HBD ≤ 5',
  bioavailability_score: 'Abbott: Martin 2005 (0.55 passes Lipinski, 0.17 fails; acids 0.85 TPSA < 75, 0.56 TPSA 75–150, 0.11 TPSA > 150)',
  pains: 'PAINS: Baell & Holloway 2010, 480 families (RDKit wehi_pains.csv), matched with explicit hydrogens',
  brenk: 'Brenk et al. 2008: 105 unwanted substructures (RDKit FilterCatalog BRENK)',
  leadlikeness: 'Teague et al. 1999: 250 ≤ MW ≤ 350, logP ≤ 3.5 (WLOGP for XLOGP3), rotatable bonds ≤ 7',
  sa_score: 'Ertl & Schuffenhauer 2009, published fragment scores; 1 (easy) – 10 (hard)',
  qed: 'QED: Bickerton et al. 2012, mean weights',
};

/**
 * The BOILED-Egg (Daina & Zoete, ChemMedChem 11 (2016) 1117–1121): its two ellipses in the plane
 * x = TPSA (Å², N, O, S, P), y = WLOGP. `conic` [B, C, D, E, F] gives x² + Bxy + Cy² + Dx + Ey + F,
 * ≤ 0 inside; it is fitted exactly (residual < 1e-10) to `outline`, the ellipse points published in
 * the paper's Supporting Information (as carried by pyBOILEDegg, doi:10.5281/zenodo.4725530, GPL-3.0;
 * the coordinates are the paper's data), rounded here to 3 decimals for drawing.
 */
export const BOILED_EGG = {
  gi: {
    conic: [8.876864621, 244.2146667, -162.4230499, -1751.221169, 3142.21043],
    outline: [[97.806,-2.227],[101.882,-2.19],[105.837,-2.135],[109.654,-2.063],[113.319,-1.974],[116.817,-1.867],[120.134,-1.745],[123.258,-1.606],[126.175,-1.452],[128.875,-1.283],[131.346,-1.1],[133.579,-0.904],[135.566,-0.695],[137.298,-0.474],[138.768,-0.243],[139.971,-0.001],[140.901,0.25],[141.556,0.509],[141.933,0.775],[142.03,1.046],[141.847,1.323],[141.384,1.604],[140.643,1.887],[139.628,2.172],[138.342,2.458],[136.79,2.742],[134.979,3.025],[132.916,3.305],[130.608,3.582],[128.065,3.853],[125.297,4.118],[122.315,4.375],[119.13,4.625],[115.756,4.865],[112.205,5.095],[108.491,5.315],[104.63,5.522],[100.636,5.716],[96.525,5.897],[92.313,6.064],[88.018,6.216],[83.655,6.352],[79.243,6.473],[74.798,6.576],[70.339,6.663],[65.882,6.733],[61.445,6.785],[57.046,6.82],[52.703,6.837],[48.431,6.835],[44.249,6.816],[40.173,6.779],[36.218,6.724],[32.401,6.652],[28.736,6.563],[25.238,6.456],[21.921,6.334],[18.797,6.195],[15.88,6.041],[13.18,5.872],[10.709,5.689],[8.475,5.493],[6.489,5.284],[4.757,5.063],[3.287,4.832],[2.084,4.59],[1.153,4.339],[0.498,4.08],[0.122,3.815],[0.025,3.543],[0.208,3.266],[0.671,2.985],[1.411,2.702],[2.427,2.417],[3.713,2.132],[5.264,1.847],[7.075,1.564],[9.139,1.284],[11.447,1.007],[13.99,0.736],[16.758,0.471],[19.74,0.214],[22.925,-0.036],[26.299,-0.276],[29.85,-0.506],[33.564,-0.725],[37.425,-0.933],[41.419,-1.127],[45.53,-1.308],[49.741,-1.475],[54.037,-1.627],[58.399,-1.763],[62.812,-1.883],[67.256,-1.987],[71.716,-2.074],[76.173,-2.144],[80.61,-2.196],[85.008,-2.231],[89.352,-2.248],[93.623,-2.246],[97.806,-2.227]],
  },
  bbb: {
    conic: [1.20008371, 217.8531709, -79.95950214, -1433.387512, 2123.792179],
    outline: [[40.97,0.406],[43.534,0.417],[46.077,0.439],[48.588,0.471],[51.058,0.514],[53.476,0.568],[55.833,0.632],[58.121,0.706],[60.329,0.79],[62.449,0.884],[64.473,0.986],[66.393,1.097],[68.202,1.217],[69.891,1.344],[71.454,1.478],[72.886,1.619],[74.181,1.767],[75.333,1.92],[76.338,2.078],[77.192,2.24],[77.891,2.406],[78.433,2.575],[78.816,2.746],[79.039,2.92],[79.099,3.094],[78.998,3.269],[78.735,3.443],[78.311,3.616],[77.729,3.788],[76.99,3.957],[76.098,4.123],[75.055,4.286],[73.867,4.444],[72.537,4.597],[71.071,4.745],[69.475,4.886],[67.755,5.021],[65.918,5.148],[63.971,5.268],[61.922,5.379],[59.779,5.482],[57.55,5.576],[55.244,5.66],[52.87,5.735],[50.438,5.799],[47.957,5.854],[45.437,5.897],[42.888,5.93],[40.32,5.952],[37.743,5.963],[35.167,5.964],[32.603,5.953],[30.06,5.931],[27.549,5.899],[25.08,5.856],[22.661,5.802],[20.304,5.738],[18.017,5.664],[15.808,5.58],[13.688,5.486],[11.664,5.384],[9.744,5.273],[7.936,5.153],[6.246,5.026],[4.683,4.892],[3.251,4.751],[1.956,4.603],[0.805,4.45],[-0.2,4.292],[-1.054,4.13],[-1.754,3.964],[-2.296,3.795],[-2.679,3.623],[-2.901,3.45],[-2.962,3.276],[-2.86,3.101],[-2.597,2.927],[-2.174,2.754],[-1.592,2.582],[-0.853,2.413],[0.04,2.247],[1.082,2.084],[2.27,1.926],[3.6,1.773],[5.066,1.625],[6.662,1.484],[8.382,1.349],[10.219,1.222],[12.166,1.102],[14.215,0.991],[16.359,0.888],[18.588,0.794],[20.894,0.71],[23.267,0.635],[25.699,0.571],[28.18,0.516],[30.7,0.473],[33.249,0.44],[35.818,0.418],[38.395,0.406],[40.97,0.406]],
  },
} as const;

/** Whether (tpsa, wlogp) lies inside one BOILED-Egg ellipse. */
export function insideEgg(part: 'gi' | 'bbb', tpsa: number, wlogp: number): boolean {
  const [b, c, d, e, f] = BOILED_EGG[part].conic;
  return tpsa * tpsa + b * tpsa * wlogp + c * wlogp * wlogp + d * tpsa + e * wlogp + f <= 0;
}

/**
 * The bioavailability radar's axes and their optimal ranges (Daina, Michielin & Zoete, Sci. Rep. 7
 * (2017) 42717, SwissADME); LIPO uses WLOGP here as XLOGP3 is not computed.
 */
export const RADAR_AXES = [
  { key: 'LIPO', field: 'wlogp', min: -0.7, max: 5.0, lo: -2, hi: 7 },
  { key: 'SIZE', field: 'mw', min: 150, max: 500, lo: 0, hi: 700 },
  { key: 'POLAR', field: 'tpsa', min: 20, max: 130, lo: 0, hi: 180 },
  { key: 'INSOLU', field: 'esol_log_s', min: -6, max: 0, lo: -10, hi: 2 },
  { key: 'INSATU', field: 'fraction_csp3', min: 0.25, max: 1, lo: 0, hi: 1 },
  { key: 'FLEX', field: 'rotatable_bonds', min: 0, max: 9, lo: 0, hi: 15 },
] as const satisfies readonly { key: string; field: AdmetField; min: number; max: number; lo: number; hi: number }[];
