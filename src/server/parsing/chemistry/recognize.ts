import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadRdkit, withValidMol } from '../../chem/rdkit-loader';
import { uncrossed } from './crossed';
import { darkenFaintGlyphs } from './faint';
import { judge, type Judged } from './judge';
import { withChargedNitrogens } from './molfile';
import { readStructures, type OsraHit } from './osra';
import { relabelled, withLabels, type LabelReader } from './relabel';
import { repairs } from './repair';
import { drawingRegions, overlap, shrink, type Gray, type PixelBox } from './regions';

/** One structure read from a page image: where (pixels of that image), what, how sure, and how it was read. */
export interface PageStructure {
  box: PixelBox;
  smiles: string;
  inchiKey: string;
  confidence: number;
  method: string;
}

export interface PageLimits {
  /** The page's recognition stops starting OSRA runs after this time (ms since the epoch). */
  deadline: number;
  /** One OSRA run at most this long. */
  runMs?: number;
  /** Regions read one by one at most (the largest first). */
  maxRegions?: number;
  /**
   * The page has a text layer, so a page where segmentation finds no drawing region has none to
   * read: no whole-page pass then (rules, tables and text are no structures, and OSRA on every page
   * of a long manual would hold its parse for minutes). Without a text layer (a scan, an image), the
   * whole-page pass always runs.
   */
  textLayer?: boolean;
  /**
   * Molecules already read from the page's drawing operators (vector.ts), in this image's pixels.
   * They compete with OSRA's readings (method 'vector'), and a region they cover is not given to OSRA.
   */
  vector?: VectorReading[];
  /**
   * Whether `osra` is installed (default true). Without it only the vector readings are kept, and
   * the reading says `missing` when the page has drawings they do not cover (pictures, scans).
   */
  osra?: boolean;
}

/** A molecule read from a page's drawing operators, placed on the page image. */
export interface VectorReading {
  box: PixelBox;
  smiles: string;
  inchiKey: string;
  heavyAtoms: number;
}

/** A vector reading's score: above any OSRA reading's (it is read from the drawing itself, not its pixels). */
const VECTOR_SCORE = 1.2;

/** Returned when the page is done, with whether its time ran out and whether OSRA is missing. */
export interface PageReading {
  structures: PageStructure[];
  timedOut: boolean;
  missing: boolean;
  regions: number;
}

interface Candidate extends Judged {
  box: PixelBox;
  method: string;
  /** Read from what RDKit refused as OSRA gave it (a nitrogen charged): no reason to stop reading the region. */
  refused?: boolean;
}

/** Space kept around a region when it is cut out for OSRA, in points. */
const PAD_PT = 6;
const RUN_MS = 45_000;
/** A region whose best reading scores below this is read again at another resolution. */
const GOOD_ENOUGH = 0.9;
/** A reading good enough to stop reading its region: a repair of what RDKit refused is not. */
const readWell = (c: Candidate) => c.score >= GOOD_ENOUGH && !c.refused;

/**
 * What a repaired reading gains over the reading it repairs: a charge without counter-ion, a radical
 * or a BH2 is what a drawing almost never means, so the repair wins where both are otherwise alike.
 */
const REPAIR_BONUS = 0.1;

/** Regions are read at this resolution at least (a 200 dpi scan is scaled up to it). */
const MIN_READ_DPI = 300;
/** Ink below this is black, the rest white, in what OSRA reads of a clean page (a rendered PDF, a picture). */
const BLACK_BELOW = 150;
/**
 * A scan's paper is grey and speckled and its ink faint (grey lines of 120–210 on paper of about
 * 240): cut at 150 its bonds break apart. Its ink is cut this far below the paper's level instead
 * (tuned on the tuning half of the chemdocs set), within SCAN_BLACK_BELOW.
 */
const SCAN_INK_MARGIN = 40;
const SCAN_BLACK_BELOW: [number, number] = [150, 215];

/**
 * Where ink turns black in a region of `img`: the paper's level is the region's median grey; clean
 * paper (median 250 or more) is cut at BLACK_BELOW, scanned paper just below its own level.
 */
export function blackBelow(img: Gray, crop: PixelBox): number {
  return cutFor(paperLevel(img, crop));
}

function cutFor(paper: number): number {
  if (paper >= 250) return BLACK_BELOW;
  return Math.max(SCAN_BLACK_BELOW[0], Math.min(SCAN_BLACK_BELOW[1], paper - SCAN_INK_MARGIN));
}

/** The paper's grey in a region of `img`: its median. */
function paperLevel(img: Gray, crop: PixelBox): number {
  const counts = new Uint32Array(256);
  const step = Math.max(1, Math.floor(Math.sqrt(((crop[2] - crop[0]) * (crop[3] - crop[1])) / 40_000)));
  let n = 0;
  for (let y = crop[1]; y < crop[3]; y += step)
    for (let x = crop[0]; x < crop[2]; x += step) {
      counts[img.data[y * img.width + x]!]!++;
      n++;
    }
  let median = 255;
  for (let v = 0, seen = 0; v < 256; v++) {
    seen += counts[v]!;
    if (seen * 2 >= n) {
      median = v;
      break;
    }
  }
  return median;
}

/** What OSRA reads of one region: `crop` of `img`, black below `cut`. */
interface Region {
  img: Gray;
  crop: PixelBox;
  cut: number;
}

/**
 * The region `crop` of the page `img` (at `dpi`), prepared once for all its readings: where its ink
 * turns black and, on scanned paper, its faint letters darkened (faint.ts; a copy of the crop alone).
 */
function regionOf(img: Gray, crop: PixelBox, dpi: number): Region {
  const paper = paperLevel(img, crop);
  const cut = cutFor(paper);
  if (cut === BLACK_BELOW) return { img, crop, cut };
  const darkened = darkenFaintGlyphs(img, crop, paper, cut, dpi);
  return { img: darkened, crop: [0, 0, darkened.width, darkened.height], cut };
}

/** Writes the region, scaled by `factor` and black and white, or the whole page `img` as it is, as the PNG OSRA reads. */
async function writePng(source: Region | Gray, file: string, factor = 1) {
  if (!('crop' in source)) {
    await sharp(source.data, { raw: { width: source.width, height: source.height, channels: 1 } }).png({ compressionLevel: 1 }).toFile(file);
    return;
  }
  const { img, crop, cut } = source;
  let p = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } }).extract({ left: crop[0], top: crop[1], width: crop[2] - crop[0], height: crop[3] - crop[1] });
  if (factor !== 1) p = p.resize({ width: Math.max(8, Math.round((crop[2] - crop[0]) * factor)), kernel: 'lanczos3' });
  await p.threshold(cut, { grayscale: true }).png({ compressionLevel: 1 }).toFile(file);
}

/**
 * Reads the structures drawn on one page image. `img` is the page at `dpi`; `text`
 * holds its text runs in the same pixels (to tell drawings from paragraphs). Drawing regions are
 * found by whitespace segmentation (regions.ts) and each is cut out and read by OSRA; a region read
 * poorly is read again at half and at 1.5× the resolution; one OSRA pass over the whole page adds
 * what the segmentation missed (when it found no region, or a region gave nothing). Every reading is checked with RDKit (judge.ts) and, where readings
 * of the same place disagree, the most plausible wins; readings that agree add to the confidence.
 */
export async function readPage(img: Gray, dpi: number, text: PixelBox[], limits: PageLimits): Promise<PageReading> {
  const scale = dpi / 72;
  const runMs = limits.runMs ?? RUN_MS;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'csai-osra-'));
  const rdkit = await loadRdkit();
  const labelReader = await labelReaderOf();
  const candidates: Candidate[] = [];
  let timedOut = false;
  let missing = false;
  const timeLeft = () => limits.deadline - Date.now();
  const osra = async (file: string, resolution: number) => {
    const left = timeLeft();
    if (left < 1000) {
      timedOut = true;
      return [] as OsraHit[];
    }
    const r = await readStructures(file, { resolution, timeoutMs: Math.min(runMs, left) });
    if (r.missing) missing = true;
    if (r.timedOut) timedOut = true;
    return r.hits;
  };
  const take = async (hits: OsraHit[], file: string, cut: number, toPage: (b: [number, number, number, number]) => PixelBox, whole: PixelBox, method: string) => {
    const found: Candidate[] = [];
    let ink: Gray | undefined;
    for (const h of hits) {
      if (h.bondPx) ink ??= await inkOf(file, cut);
      // OSRA's box with the labels at its edges (relabel.ts withLabels): the place shown for review.
      const box = h.box ? clip(toPage(ink ? withLabels(h.box, h.bondPx, ink) : h.box), whole) : whole;
      // The reading and, where OSRA put an atom on a crossed double bond (crossed.ts), the reading
      // without it, and the reading with its atom labels read again (relabel.ts); repairs of typical
      // misreadings (repair.ts) compete with each.
      const crossed = uncrossed(h.molfile);
      const readings = [
        { molfile: h.molfile, bonus: 0, how: method, refused: false },
        ...(crossed ? [{ molfile: crossed, bonus: REPAIR_BONUS, how: `${method}, repaired (crossed double bond read as an atom)` }] : []),
      ];
      if (labelReader && ink && h.bondPx && timeLeft() > 2000) {
        const relabel = await relabelled(h.molfile, h.bondPx, h.box, ink, labelReader).catch(() => null);
        if (relabel) readings.push({ molfile: relabel.molfile, bonus: RELABEL_BONUS, how: `${method}, labels read again (${relabel.changes.join('; ')})` });
      }
      // A nitrogen with four bonds read without its + sign (a nitro group's N, a pyridinium): RDKit
      // refuses the reading as it stands, so each reading is also offered with such N charged.
      for (const r of [...readings]) {
        const charged = withChargedNitrogens(r.molfile);
        if (charged) readings.push({ molfile: charged, bonus: r.bonus, how: `${r.how}, repaired (N⁺ read without its charge)`, refused: true });
      }
      for (const { molfile, bonus, how, refused } of readings) {
        const smiles = withValidMol(rdkit, molfile, (m) => m.get_smiles());
        if (!smiles) continue;
        const j = judge(rdkit, smiles, h.score);
        if (j) found.push({ ...j, score: j.score + bonus, box, method: how, refused });
        for (const r of repairs(rdkit, smiles)) {
          const k = judge(rdkit, r.smiles, h.score);
          if (k) found.push({ ...k, score: k.score + bonus + REPAIR_BONUS, box, method: `${how}, repaired (${r.reason})`, refused });
        }
      }
    }
    candidates.push(...found);
    return found;
  };
  for (const v of limits.vector ?? []) {
    candidates.push({ smiles: v.smiles, inchiKey: v.inchiKey, heavyAtoms: v.heavyAtoms, score: VECTOR_SCORE + Math.min(0.3, v.heavyAtoms / 100), box: v.box, method: 'vector' });
  }
  try {
    const f = 4;
    const small = shrink(img, f);
    const regions = drawingRegions(small, { scale: scale / f, text: text.map((b) => b.map((v) => v / f) as PixelBox), maxRegions: limits.maxRegions ?? 16 }).map(
      (b) => b.map((v) => v * f) as PixelBox,
    );
    if (limits.textLayer && regions.length === 0) return { structures: choose(candidates), timedOut: false, missing: false, regions: 0 };
    if (limits.osra === false) {
      // Nothing to run OSRA with: what the vector reader did not cover stays unread, and is said.
      const uncovered = regions.length === 0 || regions.some((r) => !coveredByVector(r, limits.vector ?? []));
      return { structures: choose(candidates), timedOut: false, missing: uncovered, regions: regions.length };
    }
    const pad = Math.round(PAD_PT * scale);
    const page: PixelBox = [0, 0, img.width, img.height];
    let unread = 0;
    for (let i = 0; i < regions.length && !missing; i++) {
      const r = regions[i]!;
      if (coveredByVector(r, limits.vector ?? [])) continue;
      const crop = clip([r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad], page);
      const file = path.join(dir, `r${i}.png`);
      const up = Math.max(1, MIN_READ_DPI / dpi);
      const region = regionOf(img, crop, dpi);
      await writePng(region, file, up);
      const at = (k: number) => (b: [number, number, number, number]) => [crop[0] + b[0] / k, crop[1] + b[1] / k, crop[0] + b[2] / k, crop[1] + b[3] / k] as PixelBox;
      const first = await take(await osra(file, Math.round(dpi * up)), file, region.cut, at(up), crop, `osra region ${Math.round(dpi * up)} dpi`);
      if (first.some(readWell)) continue;
      // Read poorly or not at all: other resolutions.
      for (const k of [0.5, 1.5].map((k) => k * up)) {
        if (missing || timeLeft() < 2000) break;
        const other = path.join(dir, `r${i}-${k}.png`);
        await writePng(region, other, k);
        const found = await take(await osra(other, Math.round(dpi * k)), other, region.cut, at(k), crop, `osra region ${Math.round(dpi * k)} dpi`);
        if (found.some(readWell)) break;
      }
      if (!candidates.some((c) => overlap(c.box, crop) > 0.5)) unread++;
    }
    // The whole page, for what the segmentation missed: when it found nothing, or a region gave no
    // molecule (several drawings run together, or one cut apart). It is the slowest run of a page, so
    // it is left out when every region was read.
    if (!missing && (regions.length === 0 || unread > 0) && timeLeft() > 3000) {
      const file = path.join(dir, 'page.png');
      await writePng(img, file);
      await take(await osra(file, dpi), file, blackBelow(img, page), (b) => b as PixelBox, page, `osra page ${dpi} dpi`);
    }
    return { structures: choose(candidates), timedOut, missing, regions: regions.length };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * What a reading with its labels read again gains over OSRA's own: PP-OCR's reading of a label it is
 * sure of is better evidence than OSRA's small OCR. The same as a repair's (not tuned).
 */
const RELABEL_BONUS = 0.1;

/** PP-OCR's recogniser for atom labels, or null when its models do not load here. */
async function labelReaderOf(): Promise<LabelReader | null> {
  const { ppocrAvailable, readBoxes } = await import('../ppocr');
  return (await ppocrAvailable()).ok ? readBoxes : null;
}

/** The ink of the image file OSRA read (grey below `cut`): 1 for ink, 0 for paper. */
async function inkOf(file: string, cut: number): Promise<Gray> {
  const { data, info } = await sharp(file).greyscale().raw().toBuffer({ resolveWithObject: true });
  const ink = new Uint8Array(info.width * info.height);
  for (let i = 0; i < ink.length; i++) ink[i] = data[i * info.channels]! < cut ? 1 : 0;
  return { data: ink, width: info.width, height: info.height };
}

/** Most of a region is a drawing already read from the page's operators: OSRA is not run on it. */
function coveredByVector(r: PixelBox, vector: VectorReading[]): boolean {
  const area = (r[2] - r[0]) * (r[3] - r[1]);
  if (!(area > 0) || !vector.length) return false;
  let covered = 0;
  for (const v of vector) covered += Math.max(0, Math.min(r[2], v.box[2]) - Math.max(r[0], v.box[0])) * Math.max(0, Math.min(r[3], v.box[3]) - Math.max(r[1], v.box[1]));
  return covered >= 0.6 * area;
}

function clip(b: PixelBox, to: PixelBox): PixelBox {
  return [Math.max(to[0], Math.round(b[0])), Math.max(to[1], Math.round(b[1])), Math.min(to[2], Math.round(b[2])), Math.min(to[3], Math.round(b[3]))];
}

/**
 * One structure per place: candidates whose boxes overlap are readings of the same drawing. Each
 * gains from others of the same place that read the same molecule; the best of each place is kept.
 */
export function choose(candidates: Candidate[]): PageStructure[] {
  const key = (c: Candidate) => c.inchiKey || c.smiles;
  const scored = candidates.map((c) => {
    const agree = candidates.filter((o) => o !== c && key(o) === key(c) && overlap(o.box, c.box) > 0.5).length;
    return { c, total: c.score + 0.15 * Math.min(agree, 2), agree };
  });
  scored.sort((a, b) => b.total - a.total || (b.c.box[2] - b.c.box[0]) * (b.c.box[3] - b.c.box[1]) - (a.c.box[2] - a.c.box[0]) * (a.c.box[3] - a.c.box[1]));
  const kept: { c: Candidate; total: number; agree: number }[] = [];
  for (const s of scored) {
    if (s.total < 0) continue;
    if (kept.some((k) => overlap(k.c.box, s.c.box) > 0.5)) continue;
    kept.push(s);
  }
  return kept.map(({ c, total, agree }) => ({
    box: c.box,
    smiles: c.smiles,
    inchiKey: c.inchiKey,
    confidence: Math.round(Math.max(0, Math.min(1, total)) * 1000) / 1000,
    method: agree ? `${c.method}, ${agree + 1} readings agree` : c.method,
  }));
}
