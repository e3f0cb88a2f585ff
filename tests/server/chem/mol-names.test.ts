import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NameToSmilesOutput, SmilesCompletionOutput } from '../../../src/contract/names';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';

let server: TestServer;
let alice: Client;
beforeAll(async () => {
  server = await startServer();
  alice = (await signedInUser(server)).client;
});
afterAll(() => server.close());

const byName = (body: unknown, client = alice) => client.post<NameToSmilesOutput>('/api/v1/mol/name_to_smiles', body);
const completion = (body: unknown, client = alice) => client.post<SmilesCompletionOutput>('/api/v1/mol/smiles_completion', body);

describe('POST /api/v1/mol/name_to_smiles', () => {
  it('resolves a Chinese drug name through the dictionary', async () => {
    const res = await byName({ name: '阿司匹林' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: '',
      data: { found: true, name: '阿司匹林', canonical_smiles: 'CC(=O)Oc1ccccc1C(=O)O', inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', source: 'dictionary' },
    });
  });

  it('resolves a CAS index name through OPSIN', async () => {
    const res = await byName({ name: 'Benzoic acid, 2-(acetyloxy)-' });
    expect(res.body.data).toMatchObject({ found: true, inchi_key: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', source: 'opsin' });
  }, 30_000);

  it('says a name whose structure is larger than any molecule call reads is too large, not unknown', async () => {
    // OPSIN reads "octactane" as an 800-carbon chain, which traps RDKit's WASM build.
    const res = await byName({ name: 'octactane' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'too_many_atoms', field: 'name', message: '该名称对应的结构过大：含 800 个原子，上限为 500 个' });
  }, 30_000);

  it('says plainly when a name is unknown', async () => {
    const res = await byName({ name: '不存在的化合物XYZ' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ found: false, name: '不存在的化合物XYZ', message: expect.stringContaining('未找到“不存在的化合物XYZ”对应的结构') as unknown });
  });

  it.each([
    ['an empty name', { name: '   ' }, '化学名称不能为空'],
    ['a 1 MB name', { name: 'a'.repeat(1_000_000) }, '化学名称不能超过500个字符'],
    ['control characters', { name: 'eth\u0007anol' }, '化学名称包含不允许的控制字符'],
    ['a number', { name: 42 }, '化学名称必须是字符串'],
    ['no name', {}, '化学名称必须是字符串'],
    ['an unknown field', { name: 'ethanol', extra: 1 }, ''],
  ])('answers %s with 400 and a Chinese message', async (_case, body, message) => {
    const res = await byName(body);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    if (message) expect(res.body.message).toContain(message);
    expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
  });

  it('needs a signed-in user', async () => {
    const res = await byName({ name: '阿司匹林' }, server.client());
    expect(res.status).toBe(401);
  });
});

describe('POST /api/v1/mol/smiles_completion', () => {
  it('proposes valid molecules for a broken SMILES, with the changes made', async () => {
    const res = await completion({ smiles: 'c1ccccc1C(=O' });
    expect(res.status).toBe(200);
    expect(res.body.data.valid).toBe(false);
    expect(res.body.data.candidates[0]).toEqual({ smiles: 'O=Cc1ccccc1', inchi_key: 'HUMNYLRZRPPJDN-UHFFFAOYSA-N', changes: ['补全 1 个未闭合的支链 “)”'] });
  });

  it('canonicalises a valid SMILES with its InChIKey', async () => {
    const res = await completion({ smiles: ' OCC ' });
    expect(res.body.data).toMatchObject({ input: 'OCC', valid: true, candidates: [{ smiles: 'CCO', inchi_key: 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N', changes: [] }] });
  });

  it.each([
    ['an empty SMILES', { smiles: '' }, 'SMILES 不能为空'],
    ['a 1 MB SMILES', { smiles: 'C'.repeat(1_000_000) }, 'SMILES 不能超过2000个字符'],
    ['control characters', { smiles: 'CC\u0000O' }, 'SMILES 只能包含可打印的 ASCII 字符'],
    ['Chinese text', { smiles: '乙醇' }, 'SMILES 只能包含可打印的 ASCII 字符'],
    ['a list', { smiles: ['CCO'] }, 'SMILES 必须是字符串'],
  ])('answers %s with 400 and a Chinese message', async (_case, body, message) => {
    const res = await completion(body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });

  it('answers a body that is not JSON with 400', async () => {
    const res = await alice.post('/api/v1/mol/smiles_completion', '{"smiles":');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('请求体不是合法的 JSON');
  });
});
