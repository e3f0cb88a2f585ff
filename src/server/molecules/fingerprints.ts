import { sql } from 'kysely';
import type { Db } from '../db/database';

/** 2048-bit fingerprints as 64 32-bit words. */
const WORDS = 64;
/** How often documents deleted since (their rows went with them) are dropped from memory. */
const PRUNE_EVERY_MS = 60_000;

/** Bits set in a 32-bit word. */
function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** A fingerprint blob (256 bytes) as words; any length is padded or cut to 2048 bits. */
export function fingerprintWords(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(WORDS);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let w = 0; w < WORDS && w * 4 + 3 < bytes.byteLength; w++) out[w] = view.getUint32(w * 4, true);
  return out;
}

export function bitCount(words: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < words.length; w++) n += popcount(words[w]!);
  return n;
}

interface Row {
  id: number;
  doc_id: string;
  morgan_fp: Buffer;
  pattern_fp: Buffer;
  pickle: Buffer;
}

/**
 * Every stored molecule's fingerprints and RDKit pickle, in memory in this process (for
 * speed: similarity over 100,000 molecules is a scan of 25 MB of words, not 100,000 RDKit calls).
 * Kept current from molecule_changes: a search first reads its last seq (one indexed row) and
 * reloads the documents changed since, so several processes on one database agree.
 */
export class MoleculeFingerprints {
  private size = 0;
  private capacity = 0;
  ids = new Int32Array(0);
  /** The document slot of each entry; -1 for an entry whose document's molecules were replaced. */
  slots = new Int32Array(0);
  morgan = new Uint32Array(0);
  morganBits = new Uint16Array(0);
  pattern = new Uint32Array(0);
  patternBits = new Uint16Array(0);
  pickles: Uint8Array[] = [];
  private dead = 0;
  private slotOf = new Map<string, number>();
  private docOf: string[] = [];
  private entriesOf: number[][] = [];
  private lastSeq = -1;
  private lastPrune = 0;
  private refreshing: Promise<void> | undefined;

  constructor(private readonly db: Db) {}

  /** Entries, including dead ones (slot -1): scan `0 ≤ i < count`. */
  get count() {
    return this.size;
  }

  /** The document id of a slot. */
  docIdOf(slot: number): string {
    return this.docOf[slot] ?? '';
  }

  /** Slots of the given documents, as a mask indexed by slot. */
  maskOf(docIds: Iterable<string>): Uint8Array {
    const mask = new Uint8Array(this.docOf.length);
    for (const id of docIds) {
      const slot = this.slotOf.get(id);
      if (slot !== undefined) mask[slot] = 1;
    }
    return mask;
  }

  /** Brings memory up to the database (one small query when nothing changed). Concurrent calls share one refresh. */
  refresh(): Promise<void> {
    this.refreshing ??= this.catchUp().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async catchUp() {
    const top = (await sql<{ seq: number | null }>`select max(seq) as seq from molecule_changes`.execute(this.db)).rows[0]?.seq ?? 0;
    if (this.lastSeq < 0) {
      // First load: everything. A change committed meanwhile is read again at the next refresh (idempotent).
      const rows = await this.db.selectFrom('molecules').select(['id', 'doc_id', 'morgan_fp', 'pattern_fp', 'pickle']).orderBy('doc_id').orderBy('ordinal').execute();
      for (const row of rows) this.add(row);
      this.lastSeq = top;
      this.lastPrune = Date.now();
      return;
    }
    if (top > this.lastSeq) {
      const changed = await this.db.selectFrom('molecule_changes').select('doc_id').distinct().where('seq', '>', this.lastSeq).where('seq', '<=', top).execute();
      for (const { doc_id } of changed) {
        this.drop(doc_id);
        const rows = await this.db.selectFrom('molecules').select(['id', 'doc_id', 'morgan_fp', 'pattern_fp', 'pickle']).where('doc_id', '=', doc_id).orderBy('ordinal').execute();
        for (const row of rows) this.add(row);
      }
      this.lastSeq = top;
    }
    if (Date.now() - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = Date.now();
      const live = new Set((await this.db.selectFrom('molecule_docs').select('doc_id').execute()).map((r) => r.doc_id));
      for (const docId of [...this.slotOf.keys()]) if (!live.has(docId)) this.drop(docId);
    }
    if (this.dead > 1000 && this.dead > this.size / 4) this.compact();
  }

  private grow(min: number) {
    if (min <= this.capacity) return;
    const capacity = Math.max(min, this.capacity * 2, 1024);
    const extend = <T extends Int32Array | Uint16Array | Uint32Array>(old: T, make: (n: number) => T, per = 1): T => {
      const next = make(capacity * per);
      next.set(old);
      return next;
    };
    this.ids = extend(this.ids, (n) => new Int32Array(n));
    this.slots = extend(this.slots, (n) => new Int32Array(n));
    this.morgan = extend(this.morgan, (n) => new Uint32Array(n), WORDS);
    this.morganBits = extend(this.morganBits, (n) => new Uint16Array(n));
    this.pattern = extend(this.pattern, (n) => new Uint32Array(n), WORDS);
    this.patternBits = extend(this.patternBits, (n) => new Uint16Array(n));
    this.capacity = capacity;
  }

  private add(row: Row) {
    let slot = this.slotOf.get(row.doc_id);
    if (slot === undefined) {
      slot = this.docOf.length;
      this.slotOf.set(row.doc_id, slot);
      this.docOf.push(row.doc_id);
      this.entriesOf.push([]);
    }
    this.grow(this.size + 1);
    const i = this.size++;
    this.ids[i] = row.id;
    this.slots[i] = slot;
    const morgan = fingerprintWords(row.morgan_fp);
    const pattern = fingerprintWords(row.pattern_fp);
    this.morgan.set(morgan, i * WORDS);
    this.pattern.set(pattern, i * WORDS);
    this.morganBits[i] = bitCount(morgan);
    this.patternBits[i] = bitCount(pattern);
    this.pickles[i] = new Uint8Array(row.pickle);
    this.entriesOf[slot]!.push(i);
  }

  /** A document's entries are marked dead (its slot stays, empty, for its next rows). */
  private drop(docId: string) {
    const slot = this.slotOf.get(docId);
    if (slot === undefined) return;
    for (const i of this.entriesOf[slot]!) {
      this.slots[i] = -1;
      this.pickles[i] = new Uint8Array(0);
      this.dead++;
    }
    this.entriesOf[slot] = [];
  }

  /** Rebuilds the arrays without dead entries and empty documents. */
  private compact() {
    const old = { ids: this.ids, slots: this.slots, morgan: this.morgan, morganBits: this.morganBits, pattern: this.pattern, patternBits: this.patternBits, pickles: this.pickles, docOf: this.docOf, size: this.size };
    this.size = 0;
    this.capacity = 0;
    this.ids = new Int32Array(0);
    this.slots = new Int32Array(0);
    this.morgan = new Uint32Array(0);
    this.morganBits = new Uint16Array(0);
    this.pattern = new Uint32Array(0);
    this.patternBits = new Uint16Array(0);
    this.pickles = [];
    this.slotOf = new Map();
    this.docOf = [];
    this.entriesOf = [];
    this.dead = 0;
    this.grow(old.size);
    for (let i = 0; i < old.size; i++) {
      const oldSlot = old.slots[i]!;
      if (oldSlot < 0) continue;
      const docId = old.docOf[oldSlot]!;
      let slot = this.slotOf.get(docId);
      if (slot === undefined) {
        slot = this.docOf.length;
        this.slotOf.set(docId, slot);
        this.docOf.push(docId);
        this.entriesOf.push([]);
      }
      const j = this.size++;
      this.ids[j] = old.ids[i]!;
      this.slots[j] = slot;
      this.morgan.set(old.morgan.subarray(i * WORDS, (i + 1) * WORDS), j * WORDS);
      this.pattern.set(old.pattern.subarray(i * WORDS, (i + 1) * WORDS), j * WORDS);
      this.morganBits[j] = old.morganBits[i]!;
      this.patternBits[j] = old.patternBits[i]!;
      this.pickles[j] = old.pickles[i]!;
      this.entriesOf[slot]!.push(j);
    }
  }

  /**
   * The `k` entries among `mask`ed documents most similar to `query` (Tanimoto ≥ threshold), best
   * first; also how many entries were searched. Entries whose bit counts alone rule them out are skipped.
   */
  similar(query: Uint32Array, mask: Uint8Array, threshold: number, k: number): { hits: { index: number; score: number }[]; searched: number; more: boolean } {
    const a = bitCount(query);
    const best: { index: number; score: number }[] = [];
    let searched = 0;
    let matched = 0;
    const { slots, morgan, morganBits } = this;
    for (let i = 0; i < this.size; i++) {
      const slot = slots[i]!;
      if (slot < 0 || !mask[slot]) continue;
      searched++;
      const b = morganBits[i]!;
      // Tanimoto ≤ min(a, b) / max(a, b).
      if (b < a * threshold || a < b * threshold || a + b === 0) continue;
      let common = 0;
      const base = i * WORDS;
      for (let w = 0; w < WORDS; w++) common += popcount(query[w]! & morgan[base + w]!);
      const score = common / (a + b - common);
      if (score < threshold) continue;
      matched++;
      if (best.length === k && score <= best[k - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { index: i, score });
      if (best.length > k) best.pop();
    }
    return { hits: best, searched, more: matched > best.length };
  }

  /**
   * Entries among `mask`ed documents whose pattern fingerprint holds every bit of the query's (the
   * substructure screen), fewest extra bits first — the molecules closest in size to the query.
   */
  screen(query: Uint32Array, mask: Uint8Array): { candidates: number[]; searched: number } {
    const candidates: number[] = [];
    let searched = 0;
    const { slots, pattern } = this;
    const set: number[] = [];
    for (let w = 0; w < WORDS; w++) if (query[w]) set.push(w);
    for (let i = 0; i < this.size; i++) {
      const slot = slots[i]!;
      if (slot < 0 || !mask[slot]) continue;
      searched++;
      const base = i * WORDS;
      let all = true;
      for (const w of set) {
        const q = query[w]!;
        // `&` gives a signed 32-bit result: compare it unsigned, as the words are stored.
        if ((pattern[base + w]! & q) >>> 0 !== q) {
          all = false;
          break;
        }
      }
      if (all) candidates.push(i);
    }
    const bits = this.patternBits;
    candidates.sort((x, y) => bits[x]! - bits[y]! || x - y);
    return { candidates, searched };
  }
}

const perDb = new WeakMap<Db, MoleculeFingerprints>();

/** The one in-memory index of this process for a database handle. */
export function moleculeFingerprints(db: Db): MoleculeFingerprints {
  let index = perDb.get(db);
  if (!index) {
    index = new MoleculeFingerprints(db);
    perDb.set(db, index);
  }
  return index;
}
