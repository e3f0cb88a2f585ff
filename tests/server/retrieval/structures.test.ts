import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { now, type Db } from '../../../src/server/db/database';
import { storeParseResult } from '../../../src/server/parsing/index-store';
import { parseSdf } from '../../../src/server/parsing/sdf';
import { hybridSearch } from '../../../src/server/retrieval/fusion';
import { citedPassages, nothingRelevant } from '../../../src/server/retrieval/rerank';
import { structurePassages, structuresIn } from '../../../src/server/retrieval/structures';
import { indexedDatabase } from './indexed-documents';

// A question may write a structure as a SMILES fragment ("SMILES 里写作 NCC3CC3"), which no molecule's
// passage writes as such: the molecules of the asked documents are searched for it as a substructure
// (RDKit), and the passages of the few that hold it are candidates holding its words.

// Debian's rdkit-data: the CDK2 set (47 molecules), as a user would upload it.
const CDK2 = '/usr/share/RDKit/Contrib/Fastcluster/testdata/cdk2.sdf';

let db: Db;
let index: Awaited<ReturnType<typeof indexedDatabase>> | undefined;

beforeAll(async () => {
  index = await indexedDatabase('structures', {
    manual: [{ page: 3, text: '化合物的命名：环丙基、甲氨基等取代基按字母顺序排列；簇（cluster）分析把相似的分子归为一组。' }],
  });
  db = index.db;
  const owner = await db.selectFrom('kb_documents').select('owner_id').where('id', '=', 'manual').executeTakeFirstOrThrow();
  await db
    .insertInto('kb_documents')
    .values({ id: 'cdk2', owner_id: owner.owner_id, folder_id: null, title: 'cdk2.sdf', type: 5, mime: 'chemical/x-mdl-sdfile', size: 0, sha256: 'cdk2', storage_name: 'cdk2', parse_status: 1, parse_progress: 0, progress_texts: '[]', page_count: null, markdown: null, created_at: now(), updated_at: now() })
    .execute();
  await storeParseResult(db, 'cdk2', await parseSdf(CDK2, 'cdk2.sdf', () => {}));
}, 60_000);

afterAll(() => index?.close());

describe('a structure a question writes as SMILES', () => {
  it('is read as a structure only when it is one', async () => {
    const rdkit = await loadRdkit();
    const written = (q: string) => structuresIn(rdkit, q).filter((s) => !s.smarts).map((s) => s.written);
    expect(written('哪个化合物带有环丙基甲氨基（SMILES 里写作 NCC3CC3）？')).toEqual(['NCC3CC3']);
    expect(written('Which compound carries an N(CCO)CCO substituent?')).toEqual(['N(CCO)CCO']);
    expect(written('含 c1ccc(F)cc1 的分子')).toEqual(['c1ccc(F)cc1']);
    // Names, units and formulas that only look like SMILES are none.
    for (const q of ['CDK2 的 IC50 是多少', 'SO3H 和 CH3 基团', 'pH7.4 下', 'B3LYP/6-31G 计算', 'C++ 和 tlmgr', 'CCO 和 COOH', 'PC12 细胞'])
      expect(written(q), q).toEqual([]);
  });

  it('reads a functional group named in words as its SMARTS, each group once and a longer name first', async () => {
    const rdkit = await loadRdkit();
    const groups = (q: string) => structuresIn(rdkit, q).filter((s) => s.smarts).map((s) => s.written);
    expect(groups('Which compound carries a free sulfonic acid group (SO3H) instead of a sulfonamide?')).toEqual(['磺酰胺', '磺酸']);
    expect(groups('哪些分子含吗啉环和哌嗪')).toEqual(['哌嗪', '吗啉']);
    expect(groups('含磺酰胺的分子')).toEqual(['磺酰胺']);
    expect(groups('tlmgr 怎么升级宏包')).toEqual([]);
    // Words that hold a group's name are not the group: nitrogen is no nitro, cholesterol no ester.
    expect(groups('the partial charge of the sulfonamide nitrogen')).toEqual(['磺酰胺']);
    expect(groups('cholesterol and fluorescence')).toEqual([]);
  });

  it('takes the molecules holding everything asked, and the question’s own words for a fragment it trails off', async () => {
    // 正丁氧基 and a thiazol-2-yl ketone: each is in several molecules, together in one.
    const both = await structurePassages(db, ['cdk2'], 'cdk2 数据集里哪个分子既带有正丁氧基，又有一个连在噻唑-2-基上的酮羰基？');
    expect(both.passages.map((p) => p.text.split('\n')[0])).toEqual(['分子 13：ZINC03814464']);
    // "O=C(Nc1ccccn1)N…": the fragment before the ellipsis is searched, and the answer is that record.
    const question = 'cdk2 数据集中哪个化合物带有吡啶-2-基脲结构（SMILES 里写作 O=C(Nc1ccccn1)N…）？它的 RMS 导数是多少？';
    const ranked = await hybridSearch(db, ['manual', 'cdk2'], question, 8);
    expect(ranked[0]?.text).toMatch(/^分子 24：ZINC03814449/);
    expect(citedPassages(ranked)[0]?.text).toMatch(/^分子 24：/);
  });

  it('finds the one molecule holding a group named in words', async () => {
    const question = 'Which compound in the CDK2 set carries a free sulfonic acid group (SO3H) instead of a sulfonamide, and what OPLS_2005 potential energy was recorded for it?';
    expect((await structurePassages(db, ['cdk2'], question)).passages.map((p) => p.text.split('\n')[0])).toContain('分子 28：ZINC03814440');
    const ranked = await hybridSearch(db, ['manual', 'cdk2'], question, 8);
    expect(ranked[0]?.text).toMatch(/^分子 28：ZINC03814440/);
    expect(nothingRelevant(ranked)).toBe(false);
  });

  it('finds the molecule holding the fragment and answers from its record', async () => {
    const question = 'cdk2 数据集里哪个化合物带有环丙基甲氨基（SMILES 里写作 NCC3CC3）？它被分在第几簇？';
    const ranked = await hybridSearch(db, ['manual', 'cdk2'], question, 8);
    expect(ranked[0]?.text).toMatch(/^分子 \d+：ZINC03814439/);
    expect(nothingRelevant(ranked)).toBe(false);
    expect(citedPassages(ranked)[0]?.text).toContain('NCC3CC3');
    // The fragment itself, without the words around it, finds the same record.
    expect((await hybridSearch(db, ['cdk2'], 'NCC3CC3', 8))[0]?.text).toMatch(/^分子 \d+：ZINC03814439/);
  });

  it('leaves a fragment too many molecules hold, or none, to the question’s words', async () => {
    // A benzene ring is in most of the set: no record is picked for it; a cyclopropylmethylamine is in one.
    expect((await structurePassages(db, ['cdk2'], '哪些分子含有 c1ccccc1？')).passages).toEqual([]);
    expect((await structurePassages(db, ['cdk2'], '哪些分子含有 NCC1CC1？')).passages.map((p) => p.text.split('\n')[0])).toEqual(['分子 37：ZINC03814439']);
    // A fragment no molecule holds is a name the documents lack: the answer abstains.
    expect(nothingRelevant(await hybridSearch(db, ['manual', 'cdk2'], 'cdk2 数据集里哪个化合物带有 C1CCCCCCC1 环（SMILES 里写作 C1CCCCCCC1）？', 8))).toBe(true);
  });

  it('searches only the molecules of the documents asked about', async () => {
    const ranked = await hybridSearch(db, ['manual'], 'cdk2 数据集里哪个化合物带有环丙基甲氨基（SMILES 里写作 NCC3CC3）？', 8);
    expect(ranked.some((p) => p.text.includes('ZINC03814439'))).toBe(false);
  });

  it('reads the set from Debian’s rdkit-data', () => {
    expect(fs.existsSync(CDK2)).toBe(true);
  });
});
