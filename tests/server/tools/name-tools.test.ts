import fs from 'node:fs';
import { diskFileStore } from '../../../src/server/files/file-store';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knowledgePort } from '../../../src/server/retrieval/knowledge-port';
import { createChemService } from '../../../src/server/chem/service';
import { loadConfig } from '../../../src/server/config';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { toolDefinitions } from '../../../src/server/tools';
import { buildTools } from '../../../src/server/tools/registry';
import { nameToSmilesTool } from '../../../src/server/tools/name-to-smiles';
import { createNameResolver } from '../../../src/server/tools/names/resolver';
import { smilesCompletionTool } from '../../../src/server/tools/smiles-completion';
import type { ToolContext, ToolServices } from '../../../src/server/tools/types';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-tools-'));
const config = loadConfig({ CSAI_DATA_DIR: dataDir });
const chem = createChemService({ workers: 1 });
const log = Fastify({ logger: false }).log;
let db: Db;
let services: ToolServices;
const ctx = (): ToolContext => ({ viewer: { userId: 'u1' }, docIds: [], signal: AbortSignal.timeout(30_000) });

beforeAll(async () => {
  db = await openTestDatabase(dataDir);
  services = { config, db, log, chem, knowledge: knowledgePort(db), names: createNameResolver({ config, chem, log }), files: diskFileStore(dataDir) };
});
afterAll(async () => {
  await services.names.close();
  await db.destroy();
  await chem.close();
});

describe('the name_to_smiles and smiles_completion tools', () => {
  it('are among the definitions the registry reads, with their stable names, and enabled', () => {
    const tools = buildTools(toolDefinitions, services);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['name_to_smiles', 'smiles_completion']));
    for (const t of tools.filter((t) => t.name === 'name_to_smiles' || t.name === 'smiles_completion')) expect(t.availability()).toEqual({ enabled: true });
  });

  it('name_to_smiles: validates input, resolves, and summarises for the model', async () => {
    const tool = nameToSmilesTool.build(services);
    expect(tool.input.safeParse({ name: '' }).error?.issues[0]?.message).toBe('化学名称不能为空');
    expect(tool.input.safeParse({ name: 'x'.repeat(1_000_000) }).error?.issues[0]?.message).toBe('化学名称不能超过500个字符');
    const out = await tool.run(tool.input.parse({ name: ' 布洛芬 ' }), ctx());
    expect(tool.output.parse(out)).toEqual({ found: true, name: '布洛芬', canonical_smiles: 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', inchi_key: 'HEFNNWSXXWATRW-UHFFFAOYSA-N', source: 'dictionary' });
    expect(tool.summarize(out)).toBe('布洛芬：SMILES CC(C)Cc1ccc(C(C)C(=O)O)cc1，InChIKey HEFNNWSXXWATRW-UHFFFAOYSA-N（来源：内置药物与试剂词典）');
    const unknown = await tool.run({ name: 'zzz不存在' }, ctx());
    expect(unknown.found).toBe(false);
    expect(tool.summarize(unknown)).toContain('未找到“zzz不存在”对应的结构');
  });

  it('name_to_smiles without OPSIN stays on and its description says what to install', async () => {
    const names = createNameResolver({ config, chem, log, opsin: { jar: '/nonexistent/opsin.jar' } });
    const tool = nameToSmilesTool.build({ ...services, names });
    const state = tool.availability();
    expect(state.enabled).toBe(true);
    expect(state.enabled && state.note).toContain('当前仅内置词典可用');
    expect(state.enabled && state.note).toContain('apt-get install -y libopsin-java default-jre-headless');
    expect(await tool.run({ name: '阿司匹林' }, ctx())).toMatchObject({ found: true, source: 'dictionary' });
    await names.close();
  });

  it('smiles_completion: validates input, completes, and summarises for the model', async () => {
    const tool = smilesCompletionTool.build(services);
    expect(tool.input.safeParse({ smiles: '乙醇' }).error?.issues[0]?.message).toContain('SMILES 只能包含可打印的 ASCII 字符');
    const out = await tool.run(tool.input.parse({ smiles: 'CC(C' }), ctx());
    expect(tool.output.parse(out).candidates[0]).toMatchObject({ smiles: 'CCC' });
    expect(tool.summarize(out)).toBe('SMILES 无效，找到 1 个可能的补全\n1. CCC（InChIKey ATUOYWHBWRKTHZ-UHFFFAOYSA-N）：补全 1 个未闭合的支链 “)”');
  });
});
