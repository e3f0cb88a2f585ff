import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmetResult } from '../../../src/contract/admet';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { signedInUser, startServer, STACK_FRAME, type Client, type TestServer } from '../helpers';

let server: TestServer;
let alice: Client;
beforeAll(async () => {
  server = await startServer();
  alice = (await signedInUser(server, { name: '爱丽丝' })).client;
}, 60_000);
afterAll(() => server.close());

const admet = (client: Client, body: unknown) => client.post<AdmetResult>('/api/v1/mol/admet', body);

/** POSTs an export with the client's session and CSRF headers; returns the raw response. */
async function exportTable(client: Client, body: unknown) {
  if (!client.csrf) await client.get('/api/v1/');
  return fetch(`${client.base}/api/v1/mol/admet/export`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': client.csrf ?? '',
    },
    body: JSON.stringify(body),
  });
}

describe('POST /api/v1/mol/admet', () => {
  it('needs a signed-in user', async () => {
    const res = await admet(server.client(), { smiles: ['CCO'] });
    expect(res.status).toBe(401);
  });

  it('gives the SwissADME-style table of aspirin and caffeine, in the order asked', async () => {
    const res = await admet(alice, { smiles: ['CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C'] });
    expect(res.status).toBe(200);
    const [aspirin, caffeine] = res.body.data.molecules;
    expect(aspirin).toMatchObject({ input: 'CC(=O)Oc1ccccc1C(=O)O', source: 'smiles', formula: 'C9H8O4', mw: 180.16, tpsa: 63.6, wlogp: 1.31, gi_absorption: 'high', lipinski: [] });
    expect(caffeine).toMatchObject({ smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', formula: 'C8H10N4O2', bbb_permeant: false });
    expect(res.body.data.notes).toEqual([]);
  }, 60_000);

  describe('bad input gets a 400 with a Chinese message and no table', () => {
    it.each([
      ['an invalid SMILES, named by its position', { smiles: ['CCO', 'C1CC'] }, /第 2 个分子（C1CC）：无法解析 SMILES/],
      ['10,000 molecules', { smiles: Array.from({ length: 10_000 }, () => 'C') }, /单次最多计算 50 个分子/],
      ['a 1 MB string', { smiles: ['C'.repeat(1_000_000)] }, /单个分子不能超过2000个字符/],
      ['no molecule', { smiles: [] }, /请至少提供 1 个分子/],
      ['not a list', { smiles: 'CCO' }, /smiles 必须是字符串数组/],
      ['a number instead of a SMILES', { smiles: [42] }, /每个分子必须是 SMILES 字符串/],
      ['a blank SMILES', { smiles: ['  '] }, /分子不能为空/],
      ['an unknown field', { smiles: ['CCO'], extra: 1 }, /.+/],
      ['control characters', { smiles: ['CC\u0000O'] }, /无法解析 SMILES：包含不允许的字符/],
      ['two structures in one string (the second was dropped)', { smiles: ['CCO c1ccccc1'] }, /SMILES 中不能有空格/],
      ['a wildcard atom (it had a molecular weight of 0)', { smiles: ['*'] }, /ADMET 需要完整的分子：结构中含连接点或未知原子（\*）/],
    ])('%s', async (_what, body, message) => {
      const res = await admet(alice, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(message);
      expect(res.body.message).toMatch(/[\u4e00-\u9fff]/);
      expect(JSON.stringify(res.body)).not.toMatch(STACK_FRAME);
      expect(res.body.data ?? null).toBeNull();
    });
  });
});

describe('POST /api/v1/mol/admet/export', () => {
  it('downloads a CSV with SwissADME’s columns, methods named, not-computed predictors marked', async () => {
    const res = await exportTable(alice, { smiles: ['CC(=O)Oc1ccccc1C(=O)O', 'CCO'], format: 'csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="admet\.csv"/);
    const text = (await res.text()).replace(/^\ufeff/, '');
    const [header, aspirin, ethanol] = text.trim().split('\r\n');
    expect(header).toContain('Log Po/w (WLOGP)');
    expect(header).toContain('ESOL Log S (Delaney 2004)');
    expect(header).toContain('Log Po/w (XLOGP3)');
    expect(aspirin).toContain('C9H8O4');
    expect(aspirin).toContain('未计算');
    expect(aspirin).toContain('phenol_ester');
    expect(ethanol!.split(',')[0]).toBe('CCO');
  }, 60_000);

  it('downloads an SDF that RDKit reads back, with the values as data fields', async () => {
    const res = await exportTable(alice, { smiles: ['CC(=O)Oc1ccccc1C(=O)O', 'CCO'], format: 'sdf' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/filename="admet\.sdf"/);
    const text = await res.text();
    const records = text.split('$$$$\n').filter((r) => r.trim());
    expect(records).toHaveLength(2);
    const rdkit = await loadRdkit();
    const mol = rdkit.get_mol(records[0]!);
    expect(mol?.get_smiles()).toBe('CC(=O)Oc1ccccc1C(=O)O');
    mol?.delete();
    expect(records[0]).toMatch(/> <MW>\n180\.16\n/);
    expect(records[0]).toMatch(/> <WLOGP>\n1\.31\n/);
    expect(records[0]).toMatch(/> <Brenk>\nphenol_ester\n/);
    expect(records[1]).toMatch(/> <GI_absorption>\nLow\n/);
  }, 60_000);

  it('writes the names it is given (e.g. SDF record names) as the record title and Name field', async () => {
    const res = await exportTable(alice, { smiles: ['CCO', 'CC(=O)Oc1ccccc1C(=O)O'], names: ['乙醇', 'aspirin'], format: 'sdf' });
    expect(res.status).toBe(200);
    const records = (await res.text()).split('$$$$\n').filter((r) => r.trim());
    expect(records[0]!.split('\n')[0]).toBe('乙醇');
    expect(records[1]).toMatch(/> <Name>\naspirin\n/);
    const csv = await exportTable(alice, { smiles: ['CCO'], names: ['=HYPERLINK("http://evil")'], format: 'csv' });
    // A name a spreadsheet would run as a formula is written as text.
    expect((await csv.text()).split('\r\n')[1]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  }, 60_000);

  it('refuses a format it does not know and a bad SMILES with a 400, without a file', async () => {
    const bad = await exportTable(alice, { smiles: ['CCO'], format: 'xlsx' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toBe('导出格式必须是 csv 或 sdf');
    const invalid = await exportTable(alice, { smiles: ['C1CC'], format: 'csv' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-disposition')).toBeNull();
    expect(((await invalid.json()) as { message: string }).message).toMatch(/无法解析 SMILES/);
  });
});
