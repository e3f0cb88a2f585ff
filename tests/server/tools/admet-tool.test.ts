import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskFileStore } from '../../../src/server/files/file-store';
import { admetResult } from '../../../src/contract/admet';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { createChemEngine } from '../../../src/server/chem/engine';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { createChemService, type ChemService } from '../../../src/server/chem/service';
import { loadConfig } from '../../../src/server/config';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { admetTool } from '../../../src/server/tools/admet';
import { toolDefinitions } from '../../../src/server/tools/index';
import { ToolInputError, type NameResolver, type ToolContext, type Tool } from '../../../src/server/tools/types';
import type { AdmetResult, AdmetToolInput } from '../../../src/contract/admet';
import { signedInUser, startServer, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';

/** A resolver for a server where name lookup is not set up: it knows no names (never invents one). */
const noNames: NameResolver = {
  resolve: async () => null,
  availability: () => ({ enabled: false, reason: '测试中未配置名称解析' }),
  close: async () => undefined,
};

let server: TestServer;
let db: Db;
let chem: ChemService;
let tool: Tool<AdmetToolInput, AdmetResult>;
let alice: { id: string };
let bob: { id: string };
let sdfDoc: string;
let bigSdfDoc: string;

const ctx = (userId: string, docIds: string[] = []): ToolContext => ({ viewer: { userId }, docIds, signal: new AbortController().signal });
const run = (input: unknown, c: ToolContext) => tool.run(tool.input.parse(input), c);

beforeAll(async () => {
  server = await startServer();
  const a = await signedInUser(server, { name: '爱丽丝' });
  const b = await signedInUser(server, { name: '鲍勃' });
  alice = a;
  bob = b;
  const engine = createChemEngine(await loadRdkit());
  const sdf = (smiles: string[]) => smiles.map((s, i) => `${engine.molfile({ smiles: s }).replace(/^[^\n]*/, `cmpd-${i + 1}`)}$$$$\n`).join('');
  const small = await upload(a.client, [{ name: 'hits.sdf', data: sdf(['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C']) }], 'folder_for_question_channel');
  sdfDoc = small.body.data.name_id[0]!.docId;
  await waitParsed(a.client, sdfDoc);
  const many = Array.from({ length: 60 }, (_, i) => `${'C'.repeat(i + 1)}O`);
  const big = await upload(a.client, [{ name: 'library.sdf', data: sdf(many) }], 'folder_for_question_channel');
  bigSdfDoc = big.body.data.name_id[0]!.docId;
  await waitParsed(a.client, bigSdfDoc);

  const config = loadConfig({ CSAI_DATA_DIR: server.dataDir, CSAI_LOG_LEVEL: 'silent' });
  db = await openTestDatabase(server.dataDir);
  chem = createChemService();
  tool = admetTool.build({ config, db, log: server.app.log, chem, knowledge: knowledgePort(db), names: noNames, files: diskFileStore(server.dataDir) });
}, 120_000);

afterAll(async () => {
  await chem?.close();
  await db?.destroy();
  await server?.close();
});

describe('the admet tool', () => {
  it('is among the definitions the registry reads, with its stable name and zod schemas', () => {
    expect(toolDefinitions).toContain(admetTool);
    expect(admetTool.name).toBe('admet');
    expect(tool.availability()).toEqual({ enabled: true });
    expect(tool.description).toMatch(/ADMET/);
  });

  it('computes typed SMILES and gives the model a compact table naming the methods', async () => {
    const out = await run({ molecules: ['CC(=O)Oc1ccccc1C(=O)O'] }, ctx(alice.id));
    expect(admetResult.parse(out).molecules).toHaveLength(1);
    const text = tool.summarize(out);
    expect(text).toContain('| 分子 |');
    expect(text).toContain('C9H8O4');
    expect(text).toContain('180.16');
    expect(text).toMatch(/WLOGP（Wildman–Crippen 1999）/);
    expect(text).toContain('XLOGP3、iLOGP、SILICOS-IT 未计算');
    expect(text.length).toBeLessThan(2000);
  }, 60_000);

  it('adds the molecules of an SDF attached to the question, with their record names', async () => {
    const out = await run({ molecules: [] }, ctx(alice.id, [sdfDoc]));
    expect(out.molecules.map((m) => [m.source, m.name, m.formula])).toEqual([
      ['sdf', 'cmpd-1', 'C9H8O4'],
      ['sdf', 'cmpd-2', 'C8H10N4O2'],
    ]);
    expect(out.molecules[0]!.input).toBe('hits.sdf #1');
  }, 60_000);

  it('computes the first 50 molecules of a larger SDF and says so', async () => {
    const out = await run({ molecules: ['CCO'] }, ctx(alice.id, [bigSdfDoc]));
    expect(out.molecules).toHaveLength(50);
    expect(out.molecules[0]!.source).toBe('smiles');
    expect(out.notes).toEqual(['附带的 SDF 文件共有 60 个分子，单次最多计算 50 个，本次计算了其中 49 个。']);
  }, 120_000);

  it('writes its note in English for a user who reads English (issue 32 §2)', async () => {
    const out = await run({ molecules: ['CCO'] }, { ...ctx(alice.id, [bigSdfDoc]), viewer: { userId: alice.id, lang: 'en' } });
    expect(out.notes).toEqual(['The attached SDF file has 60 molecules; at most 50 are computed at once, 49 of them this time.']);
  }, 120_000);

  it('does not read the SDF of someone else', async () => {
    // Bob's question cannot reach Alice's file: no molecule comes out of it.
    await expect(run({ molecules: [] }, ctx(bob.id, [sdfDoc]))).rejects.toThrow('请提供至少 1 个分子');
    const out = await run({ molecules: ['CCO'] }, ctx(bob.id, [sdfDoc]));
    expect(out.molecules.map((m) => m.source)).toEqual(['smiles']);
  });

  describe('bad input is a ToolInputError with a Chinese message', () => {
    const refusal = async (input: unknown, c = ctx(alice.id)) => {
      try {
        await run(input, c);
      } catch (err) {
        return err;
      }
      throw new Error('expected a refusal');
    };

    it('no molecule at all', async () => {
      const err = await refusal({ molecules: [] });
      expect(err).toBeInstanceOf(ToolInputError);
      expect((err as Error).message).toBe('请提供至少 1 个分子（SMILES 或化合物名称），或在提问时附带 SDF 分子文件');
    });
    it('an invalid SMILES', async () => {
      const err = await refusal({ molecules: ['CCO', 'C1CC=('] });
      expect(err).toBeInstanceOf(ToolInputError);
      expect((err as Error).message).toMatch(/^第 2 个分子（C1CC=\(）：无法解析 SMILES/);
    });
    it('a name nobody knows', async () => {
      const err = await refusal({ molecules: ['不存在的化合物'] });
      expect((err as Error).message).toBe('无法识别“不存在的化合物”：既不是有效的 SMILES，也不是已知的化合物名称');
      const word = await refusal({ molecules: ['unobtainium'] });
      expect((word as Error).message).toBe('无法识别“unobtainium”：既不是有效的 SMILES，也不是已知的化合物名称');
    });
    it('10,000 molecules and a 1 MB string (refused by the input schema)', () => {
      expect(tool.input.safeParse({ molecules: Array.from({ length: 10_000 }, () => 'C') }).error?.issues[0]?.message).toBe('单次最多计算 50 个分子，请分批提交');
      expect(tool.input.safeParse({ molecules: ['C'.repeat(1_000_000)] }).error?.issues[0]?.message).toBe('单个分子不能超过2000个字符');
      expect(tool.input.safeParse({ molecules: 'CCO' }).error?.issues[0]?.message).toBe('molecules 必须是字符串数组');
    });
  });
});
