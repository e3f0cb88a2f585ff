import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { search } from '../../../src/server/retrieval/search';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { KB, openDb, upload, waitParsed } from '../knowledge-helpers';

// Real documents nobody on this project wrote, from Debian packages (scripts/fetch-test-docs.mjs).
const ROOT = path.resolve(__dirname, '../../..');
const docsDir = execFileSync(process.execPath, [path.join(ROOT, 'scripts/fetch-test-docs.mjs')], { encoding: 'utf8' }).trim();
const real = (name: string) => fs.readFileSync(path.join(docsDir, name));

type NameId = { name_id: Array<{ name: string; docId: string }> };
type Doc = { docId: string; parseStatus: number; page_count: number | null; progress_texts: string[]; parse_progress: number };

let server: TestServer;
let me: Client;
let db: Db;
const ids: Record<string, string> = {};
const markdown = async (id: string) => (await me.get<{ markdown: string }>(`${KB}/doc_markdown/${id}`)).body.data.markdown;

beforeAll(async () => {
  server = await startServer();
  me = (await signedInUser(server)).client;
  const files = ['zhlipsum.pdf', 'zhnumber.pdf', 'fduthesis-en.pdf', 'cdk2.sdf', 'first_200.props.sdf', '5dpv.pdb'];
  const up = await upload<NameId>(me, files.map((name) => ({ name, data: real(name) })));
  expect(up.status).toBe(200);
  for (const { name, docId } of up.body.data.name_id) ids[name] = docId;
  for (const id of Object.values(ids)) {
    const doc = await waitParsed(me, id, 120_000);
    expect(doc.parseStatus, JSON.stringify(doc)).toBe(2);
  }
  db = await openTestDatabase(server.dataDir);
}, 240_000);
afterAll(async () => {
  await db?.destroy();
  await server.close();
});

describe('a Chinese PDF (zhlipsum, texlive-lang-chinese)', () => {
  it('has its page count, 100% progress and human steps', async () => {
    const doc = (await me.get<Doc>(`${KB}/doc/${ids['zhlipsum.pdf']}`)).body.data;
    expect(doc).toMatchObject({ page_count: 15, parse_progress: 100 });
    expect(doc.progress_texts).toEqual(expect.arrayContaining(['开始解析', '共 15 页，正在提取文字', '解析完成']));
  });

  it('keeps headings by font size, Chinese paragraphs and page markers', async () => {
    const md = await markdown(ids['zhlipsum.pdf']!);
    expect(md).toMatch(/^# zhlipsum:中文乱数假文（Lorem ipsum）$/m);
    expect(md).toMatch(/^## 第1节简介$/m);
    expect(md).toMatch(/^## 第2节使用说明$/m);
    expect(md).toContain('乱数假文是大段无意义的文字，常用来测试排版效果。');
    for (let p = 1; p <= 15; p++) expect(md).toContain(`<!-- page ${p} -->`);
    // Running heads ("第1节简介 2") are not repeated as content.
    expect(md).not.toMatch(/^#+ 第\d节\S+ \d+$/m);
  });

  it('turns the table of predefined texts into markdown table cells on page 3', async () => {
    const md = await markdown(ids['zhlipsum.pdf']!);
    expect(md).toMatch(/^\| simp \| 50 \| 简 \| 无意义随机假文 \|/m);
    expect(md).toMatch(/^\| aspirin \| 66 \| 简 \| 维基百科条目：阿司匹林 \|/m);
    const page3 = md.slice(md.indexOf('<!-- page 3 -->'), md.indexOf('<!-- page 4 -->'));
    expect(page3).toContain('| zhufu | 110 | 简 | 鲁迅《祝福》 |');
  });

  it('indexes passages with page and box: a search finds the table row on page 3', async () => {
    const hits = await search(db, [ids['zhlipsum.pdf']!], '阿司匹林', 3);
    expect(hits[0]).toMatchObject({ docId: ids['zhlipsum.pdf'], page: 3 });
    expect(hits[0]!.text).toContain('阿司匹林');
    const [x0, y0, x1, y1] = hits[0]!.bbox!;
    expect(0 <= x0 && x0 < x1 && x1 <= 595.3 && 0 <= y0 && y0 < y1 && y1 <= 841.9).toBe(true);
    const intro = await search(db, [ids['zhlipsum.pdf']!], '乱数假文是什么', 1);
    expect(intro[0]!.page).toBe(2);
  });
});

describe('a second Chinese PDF (zhnumber) and an English one (fduthesis-en)', () => {
  it('zhnumber: sections, Chinese numerals and example tables', async () => {
    const md = await markdown(ids['zhnumber.pdf']!);
    expect(md).toMatch(/^## 第1节简介$/m);
    expect(md).toMatch(/^## 第2节使用方法$/m);
    expect(md).toContain('zhnumber宏包用于将阿拉伯数字按照中文格式输出。');
    expect(md).toMatch(/^\| 二十亿零一千二百零二万零一百二十 \| 1 \\zhnumber\{2012020120\}\\\\ \|$/m);
    expect((await me.get<Doc>(`${KB}/doc/${ids['zhnumber.pdf']}`)).body.data.page_count).toBe(32);
  });

  it('fduthesis-en: title and numbered section headings, lists', async () => {
    const md = await markdown(ids['fduthesis-en.pdf']!);
    expect(md).toMatch(/^# The fduthesis Class/m);
    expect(md).toMatch(/^## 1 Introduction$/m);
    expect(md).toMatch(/^- Those can be only used in Chinese templates are indicated by/m);
    const hits = await search(db, [ids['fduthesis-en.pdf']!], 'mostly written in LaTeX3 syntax', 1);
    expect(hits[0]!.page).toBe(3);
  });
});

describe('an SDF file (cdk2.sdf, rdkit-data)', () => {
  it('stores one record per molecule with its properties and canonical SMILES', async () => {
    const sqlite = openDb(server);
    try {
      const rows = sqlite.prepare('select idx, name, smiles, properties from kb_molecules where doc_id = ? order by idx').all(ids['cdk2.sdf']) as Array<{ idx: number; name: string; smiles: string; properties: string }>;
      expect(rows).toHaveLength(47);
      expect(rows[0]).toMatchObject({ idx: 1, name: 'ZINC03814457', smiles: 'CC(C)C(=O)COc1nc(N)nc2[nH]cnc12' });
      expect(JSON.parse(rows[0]!.properties)).toMatchObject({ id: 'ZINC03814457', Cluster: '1' });
      expect(rows.every((r) => r.smiles)).toBe(true);
      // Explicit hydrogens of the 3D records are folded into the canonical SMILES.
      expect(rows.filter((r) => r.smiles.includes('([H])')).length).toBe(0);
    } finally {
      sqlite.close();
    }
    const md = await markdown(ids['cdk2.sdf']!);
    expect(md).toContain('共 47 个分子。');
    expect(md).toMatch(/^\| 1 \| ZINC03814457 \| CC\(C\)C\(=O\)COc1nc\(N\)nc2\[nH\]cnc12 \| ZINC03814457 \| 1 \|/m);
  });

  it('reads records whose name line is empty (first_200.props.sdf, NCI data)', async () => {
    const sqlite = openDb(server);
    try {
      const rows = sqlite.prepare('select idx, name, smiles, properties from kb_molecules where doc_id = ? order by idx').all(ids['first_200.props.sdf']) as Array<{ idx: number; name: string | null; smiles: string; properties: string }>;
      expect(rows).toHaveLength(200);
      expect(rows.every((r) => r.smiles)).toBe(true);
      // RDKit's canonical SMILES of the first record agrees with the file's own ISM field.
      expect(rows[0]!.smiles).toBe('CC1=CC(=O)C=CC1=O');
      expect(JSON.parse(rows[0]!.properties)).toMatchObject({ AMW: '122.12344', ISM: 'CC1=CC(=O)C=CC1=O' });
    } finally {
      sqlite.close();
    }
    const doc = (await me.get<Doc>(`${KB}/doc/${ids['first_200.props.sdf']}`)).body.data;
    expect(doc.progress_texts.some((t) => t.includes('无法解析'))).toBe(false);
  });

  it('finds a molecule by its SMILES string and by its name', async () => {
    const bySmiles = await search(db, [ids['cdk2.sdf']!], 'CC(C)C(=O)COc1nc(N)nc2[nH]cnc12', 1);
    expect(bySmiles[0]!.text).toContain('ZINC03814457');
    const byName = await search(db, [ids['cdk2.sdf']!], 'ZINC03814459', 1);
    expect(byName[0]!.text).toMatch(/^分子 2：ZINC03814459/);
  });
});

describe('a PDB file (5dpv.pdb, rdkit-data)', () => {
  it('summarises title, chains, residues and ligands without water', async () => {
    const md = await markdown(ids['5dpv.pdb']!);
    expect(md).toMatch(/^# AURORA A KINASE IN COMPLEX WITH AA35 AND JNJ-7706621 IN SPACE GROUP P6122$/m);
    expect(md).toContain('- PDB 编号：5DPV');
    expect(md).toContain('- 分辨率：2.29 Å');
    expect(md).toMatch(/^\| A \| 257 \| 2129 \| QWALEDFEIGRPLGKGKFGNVYLA/m);
    expect(md).toMatch(/^\| SKE \| 4-\(\{5-AMINO-1-\[\(2,6-DIFLUOROPHENYL\)CARBONYL\]/m);
    expect(md).toMatch(/^\| 5DN \| 2-\(3-BROMOPHENYL\)-8-FLUOROQUINOLINE-4-CARBOXYLIC ACID \| A \| 401 \| 21 \|$/m);
    expect(md).not.toContain('HOH');
  });
});
