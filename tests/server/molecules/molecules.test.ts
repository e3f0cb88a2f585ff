import { execFileSync } from 'node:child_process';
import { diskFileStore } from '../../../src/server/files/file-store';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { intelligenceSearchOutput, type MolSearchResult } from '../../../src/contract/molecules';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { createChemService } from '../../../src/server/chem/service';
import { createChemEngine } from '../../../src/server/chem/engine';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { loadConfig } from '../../../src/server/config';
import { openTestDatabase } from '../postgres-harness';
import { intelligenceSearchTool } from '../../../src/server/tools/intelligence-search';
import { ToolInputError, type ToolServices } from '../../../src/server/tools/types';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { aspirinSdf, KB, makePdf, upload, waitParsed } from '../knowledge-helpers';

// Real molecule files nobody on this project wrote (rdkit-data), fetched by scripts/fetch-test-docs.mjs.
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const real = (name: string) => fs.readFileSync(path.join(docsDir, name));

const SEARCH = '/api/v1/mol/search';
const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
/** The 2-aminopurine core of the cdk2.sdf inhibitors (O6-substituted guanines), as SMARTS. */
const PURINE_SMARTS = 'Nc1nc(O)c2nc[nX3]c2n1';
/** The molecule of knowledge-helpers' small SDF (3-acetoxybenzoic acid, an isomer of aspirin). */
const THEIR_MOLECULE = 'CC(=O)Oc1cccc(C(=O)O)c1';

type NameId = { name_id: Array<{ name: string; docId: string }> };

/** Diphenhydramine as its hydrochloride, nicotine as its tartrate: how suppliers' SDF files list salts. */
const DIPHENHYDRAMINE = 'CN(C)CCOC(c1ccccc1)c1ccccc1';
const SALTS: [string, string][] = [
  ['diphenhydramine hydrochloride', `${DIPHENHYDRAMINE}.Cl`],
  ['nicotine tartrate', 'CN1CCC[C@H]1c1cccnc1.OC(=O)[C@H](O)[C@@H](O)C(=O)O'],
];
/** 4-({5-amino-1-[(2,6-difluorophenyl)carbonyl]-1H-1,2,4-triazol-3-yl}amino)benzenesulfonamide: 5DPV's second ligand (HETNAM SKE). */
const SKE = 'Nc1nc(Nc2ccc(S(N)(=O)=O)cc2)nn1C(=O)c1c(F)cccc1F';

let server: TestServer;
let dataDir: string;
let owner: Client;
let colleague: Client;
let stranger: Client;
let colleagueId: string;
let ownerId: string;
let strangerId: string;
const docs: Record<string, string> = {};

/** Waits until the document's molecules are in the table (the indexing job ran). */
async function waitIndexed(docId: string, timeoutMs = 60_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const db = server.sqlite();
    try {
      const row = db.prepare('select molecules from molecule_docs where doc_id = ?').get(docId) as { molecules: number } | undefined;
      if (row) return row.molecules;
    } finally {
      db.close();
    }
    if (Date.now() > until) throw new Error(`molecules of ${docId} not indexed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const search = (c: Client, body: unknown) => c.post<MolSearchResult>(SEARCH, body);
/** A tool call's context for a user (no documents chosen). */
const ctx = (userId: string) => ({ viewer: { userId }, docIds: [], signal: new AbortController().signal });

/** Runs `use` with the intelligence_search tool over the test server's database and a chemistry service of its own. */
async function withIntelligenceTool(use: (tool: ReturnType<typeof intelligenceSearchTool.build>) => Promise<void>) {
  const db = await openTestDatabase(dataDir);
  const chem = createChemService({ workers: 1 });
  const services: ToolServices = {
    config: loadConfig({ CSAI_DATA_DIR: dataDir }),
    db,
    log: server.app.log,
    chem,
    knowledge: knowledgePort(db),
    files: diskFileStore(dataDir),
    // Not used by this tool.
    names: { resolve: async () => null, availability: () => ({ enabled: false, reason: '未配置' }), close: async () => undefined },
  };
  try {
    await use(intelligenceSearchTool.build(services));
  } finally {
    await chem.close();
    await db.destroy();
  }
}

beforeAll(async () => {
  server = await startServer();
  dataDir = server.dataDir;
  const [o, c, s] = await Promise.all([signedInUser(server, { name: '化学家' }), signedInUser(server, { name: '同事' }), signedInUser(server, { name: '外人' })]);
  owner = o.client;
  colleague = c.client;
  stranger = s.client;
  colleagueId = c.id;
  ownerId = o.id;
  strangerId = s.id;
  const paper = makePdf([
    ['Kinase inhibitors', 'Introduction without structures.'],
    ['Reference compounds', `Aspirin ${ASPIRIN} was used as control.`, 'Caffeine Cn1cnc2c1c(=O)n(C)c(=O)n2C in water.'],
  ]);
  const engine = createChemEngine(await loadRdkit());
  const saltSdf = SALTS.map(([name, smiles]) => {
    const molfile = engine.molfile({ smiles });
    return `${name}${molfile.slice(molfile.indexOf('\n')).trimEnd()}\n$$$$\n`;
  }).join('');
  const up = await upload<NameId>(owner, [
    { name: 'cdk2.sdf', data: real('cdk2.sdf') },
    { name: '5dpv.pdb', data: real('5dpv.pdb') },
    { name: 'paper.pdf', data: paper },
    { name: 'salts.sdf', data: Buffer.from(saltSdf) },
  ]);
  expect(up.status).toBe(200);
  for (const { name, docId } of up.body.data.name_id) docs[name] = docId;
  const theirs = await upload<NameId>(stranger, [{ name: 'aspirin.sdf', data: aspirinSdf }]);
  docs['aspirin.sdf'] = theirs.body.data.name_id[0]!.docId;
  for (const name of ['cdk2.sdf', '5dpv.pdb', 'paper.pdf', 'salts.sdf']) expect((await waitParsed(owner, docs[name]!, 120_000)).parseStatus).toBe(2);
  expect((await waitParsed(stranger, docs['aspirin.sdf']!)).parseStatus).toBe(2);
  for (const id of Object.values(docs)) await waitIndexed(id);
}, 240_000);
afterAll(async () => {
  await server.close();
});

describe('filling the molecule table', () => {
  it('stores every readable SDF molecule, the PDB ligands and the SMILES of a PDF with their page', () => {
    const db = server.sqlite();
    try {
      const count = (id: string) => (db.prepare('select count(*) as n from molecules where doc_id = ?').get(id) as { n: number }).n;
      const sdfRecords = (db.prepare('select count(*) as n from kb_molecules where doc_id = ? and smiles is not null').get(docs['cdk2.sdf']) as { n: number }).n;
      expect(count(docs['cdk2.sdf']!)).toBe(sdfRecords);
      expect(sdfRecords).toBeGreaterThan(40);
      const ligands = db.prepare('select name, canonical_smiles from molecules where doc_id = ? order by ordinal').all(docs['5dpv.pdb']) as { name: string; canonical_smiles: string }[];
      // Both ligands, each with its residue name, chain and number; SKE's distorted triazole defeats
      // Open Babel's geometric perception, its bonds are worked out from the file's FORMUL record.
      expect(ligands.map((l) => l.name)).toEqual(['5DN A:401', 'SKE A:402']);
      expect(ligands[0]!.canonical_smiles).toContain('Br');
      const text = db.prepare('select page, canonical_smiles, inchikey, length(morgan_fp) as m, length(pattern_fp) as p from molecules where doc_id = ? order by ordinal').all(docs['paper.pdf']) as { page: number; canonical_smiles: string; inchikey: string; m: number; p: number }[];
      expect(text.map((t) => [t.page, t.canonical_smiles])).toEqual([
        [2, 'CC(=O)Oc1ccccc1C(=O)O'],
        [2, 'Cn1c(=O)c2c(ncn2C)n(C)c1=O'],
      ]);
      expect(text[0]!.inchikey).toBe('BSYNRYMUTXBXSQ-UHFFFAOYSA-N');
      expect([text[0]!.m, text[0]!.p]).toEqual([256, 256]);
    } finally {
      db.close();
    }
  });
});

describe('searching under the documents’ access rule', () => {
  it('finds an exact structure only in documents the searcher may read, linked to its page', async () => {
    const mine = await search(owner, { query: 'O=C(O)c1ccccc1OC(C)=O', mode: 'exact' });
    expect(mine.status).toBe(200);
    expect(mine.body.data.hits.map((h) => [h.doc_id, h.source, h.page, h.score])).toEqual([[docs['paper.pdf'], 'text', 2, 1]]);
    expect((await search(stranger, { query: ASPIRIN, mode: 'exact' })).body.data.hits).toEqual([]);
    const theirs = await search(stranger, { query: THEIR_MOLECULE, mode: 'exact' });
    expect(theirs.body.data.hits.map((h) => [h.doc_id, h.source, h.name, h.mol_key])).toEqual([[docs['aspirin.sdf'], 'sdf', 'Aspirin', `${docs['aspirin.sdf']}:1`]]);
    expect((await search(owner, { query: THEIR_MOLECULE, mode: 'exact' })).body.data.hits).toEqual([]);
  });

  it('finds the same by a drawn structure: the molfile the editor gives, its first (title) line empty', async () => {
    const molfile = createChemEngine(await loadRdkit()).molfile({ smiles: ASPIRIN });
    expect(molfile.split('\n')[0]).toBe('');
    const drawn = await search(owner, { query: molfile, mode: 'exact' });
    expect(drawn.status, JSON.stringify(drawn.body).slice(0, 300)).toBe(200);
    expect(drawn.body.data.hits.map((h) => [h.doc_id, h.source, h.page])).toEqual([[docs['paper.pdf'], 'text', 2]]);
  });

  it('lets a colleague find the molecules of a document once it is shared with them, and not before', async () => {
    const before = await search(colleague, { query: ASPIRIN, mode: 'exact' });
    expect(before.body.data.hits).toEqual([]);
    expect(before.body.data.searched).toBe(0);
    const share = await owner.post(`${KB}/share_doc`, { docId: docs['paper.pdf'], user_ids: [colleagueId] });
    expect(share.status).toBe(200);
    const after = await search(colleague, { query: ASPIRIN, mode: 'similarity', threshold: 0.9 });
    expect(after.body.data.hits.map((h) => h.doc_id)).toEqual([docs['paper.pdf']]);
    // The SDF and PDB files were not shared.
    const sub = await search(colleague, { query: PURINE_SMARTS, mode: 'substructure' });
    expect(sub.body.data.hits).toEqual([]);
  });

  it('gives a copied document the molecules of its source at once', async () => {
    const copy = await colleague.post<NameId>(`${KB}/es_copy_doc_to_question_channel`, { docIds: [docs['paper.pdf']] });
    expect(copy.status).toBe(200);
    const copyId = copy.body.data.name_id[0]!.docId;
    const res = await search(colleague, { query: ASPIRIN, mode: 'exact' });
    expect(res.body.data.hits.map((h) => [h.doc_id, h.page]).sort()).toEqual([[copyId, 2], [docs['paper.pdf'], 2]].sort());
    // The copy is the colleague's: the owner does not see it.
    const owners = await search(owner, { query: ASPIRIN, mode: 'exact' });
    expect(owners.body.data.hits.map((h) => h.doc_id)).toEqual([docs['paper.pdf']]);
  });

  it('finds the SDF molecules holding a substructure (SMARTS or SMILES) for their owner only', async () => {
    const mine = await search(owner, { query: PURINE_SMARTS, mode: 'substructure', top_k: 500 });
    expect(mine.status).toBe(200);
    const hits = mine.body.data.hits;
    expect(hits.length).toBeGreaterThan(5);
    expect(hits.every((h) => h.doc_id === docs['cdk2.sdf'] && h.mol_key?.startsWith(`${docs['cdk2.sdf']}:`))).toBe(true);
    expect(mine.body.data.truncated).toBe(false);
    // Fewer atoms first: the smallest purines lead.
    expect(hits[0]!.smiles.length).toBeLessThanOrEqual(hits[hits.length - 1]!.smiles.length);
    const few = await search(owner, { query: PURINE_SMARTS, mode: 'substructure', top_k: 3 });
    expect(few.body.data.hits).toHaveLength(3);
    expect(few.body.data.truncated).toBe(true);
    const benzene = await search(owner, { query: 'C1=CC=CC=C1', mode: 'substructure', top_k: 500 });
    expect(benzene.body.data.query).toEqual({ form: 'mol', text: 'c1ccccc1', parent: null });
    expect(benzene.body.data.hits.some((h) => h.doc_id === docs['paper.pdf'])).toBe(true);
    const none = await search(stranger, { query: PURINE_SMARTS, mode: 'substructure' });
    expect(none.body.data.hits).toEqual([]);
  });

  it('ranks similar molecules by Morgan Tanimoto above the threshold, at most top_k', async () => {
    const db = server.sqlite();
    const first = db.prepare('select canonical_smiles from molecules where doc_id = ? order by ordinal limit 1').get(docs['cdk2.sdf']) as { canonical_smiles: string };
    db.close();
    const res = await search(owner, { query: first.canonical_smiles, mode: 'similarity', threshold: 0.2, top_k: 5 });
    const hits = res.body.data.hits;
    expect(hits.length).toBe(5);
    expect(hits[0]!.score).toBe(1);
    expect(hits.every((h, i) => h.score! >= 0.2 && (i === 0 || h.score! <= hits[i - 1]!.score!))).toBe(true);
    const strict = await search(owner, { query: first.canonical_smiles, mode: 'similarity', threshold: 0.99 });
    expect(strict.body.data.hits.every((h) => h.score! >= 0.99)).toBe(true);
  });

  it('finds a PDB ligand by its structure', async () => {
    const res = await search(owner, { query: 'OC(=O)c1cc(-c2cccc(Br)c2)nc2c(F)cccc12', mode: 'exact' });
    expect(res.body.data.hits.map((h) => [h.doc_id, h.source, h.name?.split(' ')[0]])).toEqual([[docs['5dpv.pdb'], 'pdb', '5DN']]);
  });

  it('finds the second ligand of a PDB file too, as the structure its HETNAM names', async () => {
    const res = await search(owner, { query: SKE, mode: 'exact' });
    expect(res.body.data.hits.map((h) => [h.doc_id, h.source, h.name, h.matched])).toEqual([[docs['5dpv.pdb'], 'pdb', 'SKE A:402', 'structure']]);
    // Read back by RDKit: the stored SMILES is the named molecule (same InChIKey as the name's structure).
    const rdkit = await loadRdkit();
    const key = (smiles: string) => {
      const mol = rdkit.get_mol(smiles)!;
      try {
        return rdkit.get_inchikey_for_inchi(mol.get_inchi());
      } finally {
        mol.delete();
      }
    };
    expect(key(res.body.data.hits[0]!.smiles)).toBe(key(SKE));
    expect(key(SKE)).toBe('KDKUVYLMPJIGKA-UHFFFAOYSA-N');
  });
});

describe('salts and mixtures', () => {
  it('finds a hydrochloride by its free base, keeping the salt’s structure and saying it matched the parent', async () => {
    const res = await search(owner, { query: DIPHENHYDRAMINE, mode: 'exact' });
    expect(res.status).toBe(200);
    expect(res.body.data.hits.map((h) => [h.doc_id, h.name, h.smiles, h.matched, h.parent_smiles])).toEqual([
      [docs['salts.sdf'], 'diphenhydramine hydrochloride', 'CN(C)CCOC(c1ccccc1)c1ccccc1.Cl', 'parent', 'CN(C)CCOC(c1ccccc1)c1ccccc1'],
    ]);
    // The record keeps its full structure: its SDF record is the salt.
    const record = await owner.get<{ molfile: string; smiles: string }>(`/api/v1/mol/get_mol_string?mol_key=${encodeURIComponent(res.body.data.hits[0]!.mol_key!)}`);
    expect(record.body.data.smiles).toContain('Cl');
    // The protonated form as a query has the same parent; the salt itself matches as its structure.
    const cation = await search(owner, { query: 'C[NH+](C)CCOC(c1ccccc1)c1ccccc1', mode: 'exact' });
    expect(cation.body.data.query.parent).toBe(DIPHENHYDRAMINE);
    expect(cation.body.data.hits.map((h) => h.matched)).toEqual(['parent']);
    const itself = await search(owner, { query: 'Cl.CN(C)CCOC(c1ccccc1)c1ccccc1', mode: 'exact' });
    expect(itself.body.data.hits.map((h) => [h.doc_id, h.matched])).toEqual([[docs['salts.sdf'], 'structure']]);
    // A mixture is filed under its largest organic part: nicotine, not tartaric acid.
    const nicotine = await search(owner, { query: 'CN1CCC[C@H]1c1cccnc1', mode: 'exact' });
    expect(nicotine.body.data.hits.map((h) => [h.name, h.matched])).toEqual([['nicotine tartrate', 'parent']]);
    expect((await search(owner, { query: 'OC(=O)[C@H](O)[C@@H](O)C(=O)O', mode: 'exact' })).body.data.hits).toEqual([]);
    // Only the structure itself when asked.
    expect((await search(owner, { query: DIPHENHYDRAMINE, mode: 'exact', match_parent: false })).body.data.hits).toEqual([]);
    // Not in documents the searcher may not read.
    expect((await search(stranger, { query: DIPHENHYDRAMINE, mode: 'exact' })).body.data.hits).toEqual([]);
  });
});

describe('substructure hits', () => {
  it('carry the matched atoms, numbered as in their SMILES, and their pictures highlight exactly those', async () => {
    const res = await search(owner, { query: 'CN(C)CCO', mode: 'substructure' });
    expect(res.status).toBe(200);
    const hit = res.body.data.hits.find((h) => h.doc_id === docs['salts.sdf'])!;
    expect(hit.smiles).toBe('CN(C)CCOC(c1ccccc1)c1ccccc1.Cl');
    expect(hit.highlight).toEqual({ atoms: [0, 1, 2, 3, 4, 5], bonds: [0, 1, 2, 3, 4] });
    // What the result page's picture asks for (csai-molecule highlight-atoms / highlight-bonds).
    const drawn = await owner.post<{ svg: string; highlighted_atoms: number[] }>('/api/v1/mol/draw_svg', { smiles: hit.smiles, width: 200, height: 150, highlight: hit.highlight });
    expect(drawn.status).toBe(200);
    expect(drawn.body.data.highlighted_atoms).toEqual([0, 1, 2, 3, 4, 5]);
    const highlighted = [...drawn.body.data.svg.matchAll(/<ellipse[^>]*class="(atom-\d+)"[^>]*fill:#FF9933/g)].map((m) => m[1]);
    expect(new Set(highlighted)).toEqual(new Set(['atom-0', 'atom-1', 'atom-2', 'atom-3', 'atom-4', 'atom-5']));
    // Exact and similarity hits have no highlight.
    expect((await search(owner, { query: DIPHENHYDRAMINE, mode: 'exact' })).body.data.hits.every((h) => h.highlight === null)).toBe(true);
  });
});

describe('the intelligence_search tool', () => {
  it('searches the text and molecules of every readable document, and only those', async () => {
    await withIntelligenceTool(async (tool) => {
      expect(tool.availability()).toEqual({ enabled: true });
      const input = tool.input.parse({ query: `Aspirin ${ASPIRIN} control` });
      const mine = intelligenceSearchOutput.parse(await tool.run(input, ctx(ownerId)));
      expect(mine.passages[0]).toMatchObject({ doc_id: docs['paper.pdf'], page: 2 });
      expect(mine.molecules?.hits.map((h) => [h.doc_id, h.page, h.score])).toEqual([[docs['paper.pdf'], 2, 1]]);
      const text = tool.summarize(mine);
      expect(text).toContain('paper.pdf');
      expect(text).toContain('第 2 页');
      expect(text).toContain('相似度 1.00');
      // The stranger reads none of the owner's documents.
      const theirs = intelligenceSearchOutput.parse(await tool.run(input, ctx(strangerId)));
      expect(theirs.passages.some((p) => p.doc_id === docs['paper.pdf'])).toBe(false);
      expect(theirs.molecules?.hits.some((h) => h.doc_id === docs['paper.pdf'])).toBe(false);
      // A substructure given on purpose.
      const sub = intelligenceSearchOutput.parse(await tool.run(tool.input.parse({ query: 'CDK2 抑制剂', structure: PURINE_SMARTS, mode: 'substructure', top_k: 5 }), ctx(ownerId)));
      expect(sub.molecules?.hits).toHaveLength(5);
      expect(sub.molecules?.truncated).toBe(true);
      await expect(tool.run(tool.input.parse({ query: 'x', structure: '[#6;', mode: 'substructure' }), ctx(ownerId))).rejects.toThrow(ToolInputError);
      // A salt found by its free base: the text the model reads says it matched the parent.
      const salt = intelligenceSearchOutput.parse(await tool.run(tool.input.parse({ query: '苯海拉明', structure: DIPHENHYDRAMINE, mode: 'exact' }), ctx(ownerId)));
      expect(salt.molecules?.hits.map((h) => [h.doc_id, h.matched])).toEqual([[docs['salts.sdf'], 'parent']]);
      expect(tool.summarize(salt)).toContain(`按母体结构匹配（母体 ${DIPHENHYDRAMINE}）`);
      expect(tool.input.safeParse({ query: 'x', top_k: 1_000_000 }).success).toBe(false);
    });
  });
});

describe('stereoisomers', () => {
  it('finds every stereoisomer of a structure given without stereo, and only the one asked for when it is given', async () => {
    // Benzalacetone as E and Z, its CD3 analogue (the same skeleton, an isotope-labelled form), and (S)-ibuprofen.
    const engine = createChemEngine(await loadRdkit());
    const records: [string, string][] = [
      ['(E)-benzalacetone', 'CC(=O)/C=C/c1ccccc1'],
      ['(Z)-benzalacetone', 'CC(=O)/C=C\\c1ccccc1'],
      ['benzalacetone-d3', '[2H]C([2H])([2H])C(=O)/C=C/c1ccccc1'],
      ['(S)-ibuprofen', 'CC(C)Cc1ccc([C@H](C)C(=O)O)cc1'],
    ];
    const sdf = records.map(([name, smiles]) => {
      const molfile = engine.molfile({ smiles });
      return `${name}${molfile.slice(molfile.indexOf('\n')).trimEnd()}\n$$$$\n`;
    }).join('');
    const up = await upload<NameId>(owner, [{ name: 'stereo.sdf', data: Buffer.from(sdf) }]);
    const docId = up.body.data.name_id[0]!.docId;
    expect((await waitParsed(owner, docId, 120_000)).parseStatus).toBe(2);
    expect(await waitIndexed(docId)).toBe(4);

    const open = await search(owner, { query: 'CC(=O)C=Cc1ccccc1', mode: 'exact' });
    expect(open.status).toBe(200);
    expect(open.body.data.hits.map((h) => [h.name, h.matched])).toEqual([
      ['(E)-benzalacetone', 'stereo'],
      ['(Z)-benzalacetone', 'stereo'],
    ]);
    const e = await search(owner, { query: 'CC(=O)/C=C/c1ccccc1', mode: 'exact' });
    expect(e.body.data.hits.map((h) => [h.name, h.matched])).toEqual([['(E)-benzalacetone', 'structure']]);
    const racemic = await search(owner, { query: 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', mode: 'exact' });
    expect(racemic.body.data.hits.map((h) => [h.name, h.matched])).toEqual([['(S)-ibuprofen', 'stereo']]);
    const r = await search(owner, { query: 'CC(C)Cc1ccc([C@@H](C)C(=O)O)cc1', mode: 'exact' });
    expect(r.body.data.hits).toEqual([]);
    // Not in documents the searcher may not read.
    expect((await search(stranger, { query: 'CC(=O)C=Cc1ccccc1', mode: 'exact' })).body.data.hits).toEqual([]);

    // The text the model reads says what was matched.
    await withIntelligenceTool(async (tool) => {
      const out = intelligenceSearchOutput.parse(await tool.run(tool.input.parse({ query: '苄叉丙酮', structure: 'CC(=O)C=Cc1ccccc1', mode: 'exact' }), ctx(ownerId)));
      expect(out.molecules?.hits.map((h) => h.matched)).toEqual(['stereo', 'stereo']);
      expect(tool.summarize(out)).toContain('为查询结构的立体异构体（查询未指定立体构型）');
    });
  }, 180_000);
});

describe('bad input', () => {
  const cases: [string, unknown, RegExp][] = [
    ['an invalid SMARTS', { query: '[#6;', mode: 'substructure' }, /SMARTS/],
    ['an invalid SMILES for similarity', { query: 'C1CC', mode: 'similarity' }, /SMILES/],
    ['a SMARTS for exact search', { query: '[#6]~[#7]', mode: 'exact' }, /子结构/],
    ['a 1 MB query', { query: 'C'.repeat(1_000_000), mode: 'exact' }, /不能超过/],
    ['top_k 10^6', { query: 'CCO', mode: 'similarity', top_k: 1_000_000 }, /返回数量/],
    ['an unknown mode', { query: 'CCO', mode: 'fuzzy' }, /检索方式/],
    ['a threshold above 1', { query: 'CCO', mode: 'similarity', threshold: 2 }, /阈值/],
    ['an empty query', { query: '  ', mode: 'exact' }, /请输入查询结构/],
    ['an unknown field', { query: 'CCO', mode: 'exact', limit: 3 }, /.+/],
    ['match_parent as a string', { query: 'CCO', mode: 'exact', match_parent: 'yes' }, /match_parent/],
  ];
  for (const [what, body, message] of cases) {
    it(`answers ${what} with 400 and a Chinese message`, async () => {
      const res = await search(owner, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(message);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
    });
  }

  it('asks a signed-out caller to sign in', async () => {
    const anon = server.client();
    await anon.get('/api/v1/');
    const res = await search(anon, { query: 'CCO', mode: 'exact' });
    expect(res.status).toBe(401);
  });
});

describe('a deleted document', () => {
  it('takes its molecules with it', async () => {
    const res = await stranger.request('DELETE', `${KB}/${docs['aspirin.sdf']}`);
    expect(res.status).toBe(200);
    const after = await search(stranger, { query: THEIR_MOLECULE, mode: 'similarity', threshold: 0.5 });
    expect(after.body.data.hits).toEqual([]);
    const db = server.sqlite();
    try {
      expect(db.prepare('select count(*) as n from molecules where doc_id = ?').get(docs['aspirin.sdf'])).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('documents parsed before the molecule table', () => {
  it('are indexed at the next start', async () => {
    const db = server.sqlite();
    db.prepare('delete from molecules where doc_id = ?').run(docs['paper.pdf']);
    db.prepare('delete from molecule_docs where doc_id = ?').run(docs['paper.pdf']);
    db.prepare("delete from jobs where kind = 'index_molecules'").run();
    // The salts as an index from before parent keys (version 1): no parent key, no second ligand.
    db.prepare("update molecules set parent_key = '', parent_smiles = null where doc_id = ?").run(docs['salts.sdf']);
    db.prepare('update molecule_docs set version = 1 where doc_id = ?').run(docs['salts.sdf']);
    db.close();
    await server.close();
    server = await startServer({}, dataDir);
    expect(await waitIndexed(docs['paper.pdf']!)).toBe(2);
    const until = Date.now() + 60_000;
    for (;;) {
      const check = server.sqlite();
      const version = (check.prepare('select version from molecule_docs where doc_id = ?').get(docs['salts.sdf']) as { version: number }).version;
      check.close();
      if (version > 1) break;
      if (Date.now() > until) throw new Error('salts not indexed again');
      await new Promise((r) => setTimeout(r, 200));
    }
    const after = server.sqlite();
    try {
      expect(after.prepare('select parent_key, parent_smiles from molecules where doc_id = ? order by ordinal').all(docs['salts.sdf'])).toEqual([
        { parent_key: 'ZZVUWRFHKOJYTH-UHFFFAOYSA-N', parent_smiles: DIPHENHYDRAMINE },
        { parent_key: 'SNICXCGAKADSCV-JTQLQIEISA-N', parent_smiles: 'CN1CCC[C@H]1c1cccnc1' },
      ]);
    } finally {
      after.close();
    }
  }, 120_000);
});
