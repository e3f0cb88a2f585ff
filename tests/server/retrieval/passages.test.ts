import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outlineQuoteOf, quoteOf, subjectTokens } from '../../../src/server/answering/local-engine';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { chunkBlocks, chunkText, meaningfulLength, MIN_MEANINGFUL, titleWords } from '../../../src/server/parsing/chunks';
import type { Block } from '../../../src/server/parsing/pdf-layout';
import { summarisePdb } from '../../../src/server/parsing/pdb';
import { search } from '../../../src/server/retrieval/search';
import { hybridSearch } from '../../../src/server/retrieval/fusion';
import { queryTerms } from '../../../src/server/text/segment';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { answerText, ask, readEvents } from '../answering-helpers';
import { upload, waitParsed } from '../knowledge-helpers';

// What the index holds and finds for real documents (scripts/fetch-test-docs.mjs): no passage too
// small to mean anything (a lone "7." ranked first on any weak match and was cited as the answer),
// SDF and PDB documents found by what they are about and by their file names, and English
// questions searched by their subject words rather than "what", "are", "to".
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const real = (name: string) => fs.readFileSync(path.join(docsDir, name));

const block = (page: number, bbox: Block['bbox'], text: string, kind: Block['kind'] = 'paragraph'): Block => ({ kind, page, bbox, text, size: 10 });
const prose = (n: number) => `Passage ${n} says something long enough about kinase selectivity and solubility.`;

describe('passages too small to stand alone', () => {
  it('counts letters and digits (Han twice), and nothing without two letters together', () => {
    expect(meaningfulLength('7.')).toBe(0);
    expect(meaningfulLength('\\[')).toBe(0);
    expect(meaningfulLength('vii')).toBe(3);
    expect(meaningfulLength('在此特向这些奉献者表示感谢!')).toBe(26);
  });

  it('merge a lone list number into the passage after it and a stray symbol into the one before, inside one column', () => {
    const chunks = chunkBlocks([
      block(1, [72, 600, 300, 700], prose(1)),
      block(1, [72, 580, 90, 590], '7.', 'heading'),
      block(1, [72, 400, 300, 570], prose(2), 'heading'),
      block(1, [72, 380, 100, 390], '\\[', 'heading'),
    ]);
    expect(chunks.map((c) => c.text)).toEqual([prose(1), `7.\n${prose(2)}\n\\[`]);
    expect(chunks[1]!.bbox).toEqual([72, 380, 300, 590]);
  });

  it('keep a short heading-like line with the text after it', () => {
    const chunks = chunkBlocks([block(2, [72, 700, 300, 720], prose(1)), block(2, [100, 650, 200, 660], 'Test title', 'heading'), block(2, [72, 400, 300, 640], prose(2), 'heading')]);
    expect(chunks.map((c) => c.text)).toEqual([prose(1), `Test title\n${prose(2)}`]);
  });

  it('leave out a tiny piece that shares a column with no neighbour on its page (never a box over two columns)', () => {
    const chunks = chunkBlocks([
      block(3, [50, 400, 290, 700], prose(1)),
      block(3, [330, 400, 560, 700], prose(2), 'heading'),
      block(4, [300, 30, 312, 40], '12'),
      block(4, [50, 400, 290, 700], prose(3), 'heading'),
    ]);
    expect(chunks.map((c) => c.text)).toEqual([prose(1), prose(2), prose(3)]);
    for (const c of chunks) expect(c.bbox![2] - c.bbox![0]).toBeLessThanOrEqual(240);
  });

  it('are never quoted on their own: a list number split off at its dot stays with its sentence', () => {
    const text = '7. AGGREGATION WITH INDEPENDENT WORKS\nA compilation of the Document with other separate works.';
    expect(quoteOf(text, new Set(['cdk2']))).toBe('7. AGGREGATION WITH INDEPENDENT WORKS');
    expect(quoteOf(text, new Set(['compilation']))).toBe('A compilation of the Document with other separate works.');
  });

  it('are quoted at the row writing the command of a symbol the question pastes, not at the table caption', () => {
    const table = '表4.7:二元运算符\n+ + − -\n± \\pm ∓ \\mp / \\triangleleft\n· \\cdot ÷ \\div . \\triangleright\n⊕ \\oplus ⊖ \\ominus ∨ \\vee\n∩ \\cap ∪ \\cup ⊎ \\uplus';
    expect(quoteOf(table, subjectTokens('圆圈里面一个加号的那个符号 ⊕ 在公式里怎么输入'))).toContain('\\oplus');
  });

  it('are quoted from a table of contents at the part the question names, as titles with their pages, without leaders', () => {
    const contents = 'M错误处理 33\n85 Error: pdflatex can’t find table ‘maxp’ . . . . . . . . . . 33\nN帮助文档 34\n86能否推荐一些比较好的中文资料？. . . . . . . . . . 34\n87能否推荐一些比较好的英文资料？. . . . . . | 34';
    expect(outlineQuoteOf(contents, subjectTokens('“帮助文档”那一部分收了哪几个问题'))).toBe('N帮助文档（34）；86能否推荐一些比较好的中文资料？（34）；87能否推荐一些比较好的英文资料？（34）');
    // The part ends where the next part begins.
    expect(outlineQuoteOf(contents, subjectTokens('错误处理部分有哪些问题'))).toBe('M错误处理（33）；85 Error: pdflatex can’t find table ‘maxp’（33）');
    const sections = '1.3跨版本升级 . . . . . . 10\n1.4升级宏包 . . . . . . 10\n1.4.1权限问题 . . . . . . 10\n1.4.2网络问题 . . . . . . 11\n1.5安装宏包 . . . . . . 11';
    expect(outlineQuoteOf(sections, subjectTokens('升级宏包那一节讲了哪几种情况'))).toBe('1.4升级宏包（10）；1.4.1权限问题（10）；1.4.2网络问题（11）');
    expect(outlineQuoteOf(contents, subjectTokens('帮助文档部分有哪些问题'), 20)).toBe('N帮助文档（34）；86能否推荐一些比较…');
  });

  it('are never quoted in part when they are reference-list items: the author stays with the title', () => {
    const list = 'References\n[3]王磊。LATEX 2ε插图指南，2000。\n[4]张林波。关于新版CCT的说明，2003。\n[5] Tobias Oetiker. The Not So Short Introduction,\nversion 4.12, 2003.';
    expect(quoteOf(list, new Set(['新版', 'cct', '说明']))).toBe('［4］张林波。关于新版CCT的说明，2003。');
    // An item that runs on to the next line is quoted whole.
    expect(quoteOf(list, new Set(['oetiker']))).toBe('［5］ Tobias Oetiker. The Not So Short Introduction, version 4.12, 2003.');
  });

  it('keep the only passage of a document whose whole text is short (an image label)', () => {
    expect(chunkText('阿司匹林', 1).map((c) => c.text)).toEqual(['阿司匹林']);
  });
});

describe('index words of a title and of a question', () => {
  it('take the file name without its extension, split at . _ -', () => {
    expect(titleWords('cdk2.sdf')).toBe('cdk2');
    expect(titleWords('lshort-zh-cn.pdf')).toBe('lshort zh cn');
  });

  it('drop English function words but keep the subject, element symbols, and a question of function words only', () => {
    expect(queryTerms('What are CDK2 inhibitors binding to?')).toEqual(['"cdk2"', '"inhibitor"', '"bind"']);
    expect(queryTerms('Is there As or In in the sample?')).toEqual(['"as"', '"in"', '"sampl"']);
    expect(queryTerms('what is this')).toEqual(['"what"', '"is"', '"this"']);
  });
});

describe('the PDB summary (5dpv.pdb)', () => {
  it('holds keywords, the citation title and the binding sites with their residues', () => {
    const s = summarisePdb(real('5dpv.pdb').toString('latin1'));
    expect(s.compounds).toEqual(['AURORA KINASE A']);
    expect(s.keywords).toContain('MITOTIC KINASE');
    expect(s.journalTitle).toBe('ALLOSTERIC MODULATION OF AURKA KINASE ACTIVITY BY A SMALL-MOLECULE INHIBITOR OF ITS PROTEIN-PROTEIN INTERACTION WITH TPX2.');
    expect(s.sites).toEqual([
      { id: 'AC1', description: 'binding site for residue 5DN A 401', residues: ['LYS A166', 'LEU A169', 'GLU A175', 'LEU A178', 'ARG A179', 'VAL A182', 'TYR A199', 'HIS A201', 'VAL A206'] },
      expect.objectContaining({ id: 'AC2', description: 'binding site for residue SKE A 402' }),
    ]);
  });
});

describe('a knowledge base with lshort-zh-cn.pdf, cdk2.sdf and 5dpv.pdb', () => {
  let server: TestServer;
  let me: Client;
  let db: Db;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer();
    me = (await signedInUser(server)).client;
    const files = ['lshort-zh-cn.pdf', 'cdk2.sdf', '5dpv.pdb'];
    const up = await upload(me, files.map((name) => ({ name, data: real(name) })));
    expect(up.status).toBe(200);
    for (const { name, docId } of up.body.data.name_id) ids[name] = docId;
    for (const id of Object.values(ids)) expect((await waitParsed(me, id, 180_000)).parseStatus).toBe(2);
    db = await openTestDatabase(server.dataDir);
  }, 240_000);
  afterAll(async () => {
    await db?.destroy();
    await server?.close();
  });
  const all = () => Object.values(ids);

  it(`indexes no lshort passage with fewer than ${MIN_MEANINGFUL} meaningful characters`, async () => {
    const rows = await db.selectFrom('kb_chunks').select(['page', 'text']).where('doc_id', '=', ids['lshort-zh-cn.pdf']!).execute();
    expect(rows.length).toBeGreaterThan(300);
    expect(rows.filter((r) => meaningfulLength(r.text) < MIN_MEANINGFUL)).toEqual([]);
    // Page 131's numbered sections are still there, each with its text.
    expect(rows.some((r) => r.page === 131 && r.text.startsWith('7. AGGREGATION WITH INDEPENDENT WORKS\n'))).toBe(true);
  });

  it('answers "What are CDK2 inhibitors binding to?" with the SDF and the PDB in the top 5', async () => {
    const hits = await search(db, all(), 'What are CDK2 inhibitors binding to?', 5);
    const docs = hits.map((h) => h.docId);
    expect(docs).toContain(ids['cdk2.sdf']);
    expect(docs).toContain(ids['5dpv.pdb']);
    expect(docs).not.toContain(ids['lshort-zh-cn.pdf']);
    expect(hits.find((h) => h.docId === ids['5dpv.pdb'])!.text).toContain('binding site for residue SKE A 402');
    for (const h of hits) expect(meaningfulLength(h.text)).toBeGreaterThanOrEqual(MIN_MEANINGFUL);
  });

  it('answers the question (no language model) by quoting the PDB and the SDF, not a lone "7."', async () => {
    const { questionId } = await ask(me, 'What are CDK2 inhibitors binding to?', { docIdList: all() });
    const { events } = await readEvents(me, questionId);
    const cited = events.filter((e) => e.event === 'citation').map((e) => e.data);
    expect(cited.map((c) => c.docId)).toEqual(expect.arrayContaining([ids['5dpv.pdb'], ids['cdk2.sdf']]));
    const text = answerText(events);
    expect(text).toContain('**《5dpv.pdb》**');
    expect(text).toContain('**《cdk2.sdf》**');
    expect(text).toContain('binding site for residue');
    expect(text).not.toMatch(/“7\.”/);
  });

  it('finds a document by its file name: the SDF overview first for "cdk2", the PDB summary for "5dpv"', async () => {
    const cdk2 = await search(db, all(), 'cdk2 分子', 3);
    expect(cdk2[0]).toMatchObject({ docId: ids['cdk2.sdf'] });
    expect(cdk2[0]!.text).toMatch(/^cdk2\.sdf：SDF 分子集，共 47 个分子。/);
    // The second stage's search (with the lexicon's equivalents: 分子 → molecule) keeps it first.
    expect((await hybridSearch(db, all(), 'cdk2 分子', 3))[0]).toMatchObject({ docId: ids['cdk2.sdf'] });
    const pdb = await search(db, all(), '5dpv', 3);
    expect(pdb[0]).toMatchObject({ docId: ids['5dpv.pdb'] });
    expect(pdb[0]!.text).toContain('AURORA KINASE A');
  });

  it('finds an SDF record by its ID and properties, and the PDB by its protein and organism', async () => {
    const zinc = await search(db, all(), 'ZINC03814459 的 Cluster', 3);
    expect(zinc[0]).toMatchObject({ docId: ids['cdk2.sdf'] });
    expect(zinc[0]!.text).toMatch(/^分子 2：ZINC03814459\nSMILES: /);
    const aurora = await search(db, all(), 'Aurora kinase from Homo sapiens', 3);
    expect(aurora[0]).toMatchObject({ docId: ids['5dpv.pdb'] });
  });

  it('still answers a Chinese question from lshort on its page', async () => {
    const hits = await search(db, all(), '高德纳当初为什么要开发 TeX 排版软件？', 5);
    expect(hits.some((h) => h.docId === ids['lshort-zh-cn.pdf'] && h.page === 13)).toBe(true);
  });
});
