import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOL_LIMITS } from '../../../src/contract/mol';
import { createChemEngine, type ChemEngine } from '../../../src/server/chem/engine';
import { loadRdkit } from '../../../src/server/chem/rdkit-loader';
import { DRUGS } from './drugs';
import { inspectSvg } from './svg-check';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';

interface Drawing {
  svg: string;
  canonical_smiles: string;
  formula: string;
  num_atoms: number;
  highlighted_atoms: number[];
  highlighted_bonds: number[];
}

let server: TestServer;
let engine: ChemEngine;
let alice: Client;
let bob: Client;
let bobId: string;
beforeAll(async () => {
  engine = createChemEngine(await loadRdkit());
  server = await startServer();
  alice = (await signedInUser(server, { name: '爱丽丝' })).client;
  const b = await signedInUser(server, { name: '鲍勃' });
  bob = b.client;
  bobId = b.id;
});
afterAll(() => server.close());

/** An SDF of the given SMILES written by RDKit, each record with a name and a data field. */
const sdfText = (smiles: string[]) =>
  smiles.map((s, i) => `${engine.molfile({ smiles: s }).replace(/^[^\n]*/, `mol${i}`)}>  <ID>\n${i}\n\n$$$$\n`).join('');

const draw = (client: Client, body: unknown) => client.post<Drawing>('/api/v1/mol/draw_svg', body);

/** Uploads one file through the knowledge-base upload call and waits until its parsing has ended. */
async function upload(client: Client, name: string, content: string): Promise<string> {
  const form = new FormData();
  form.append('files', new Blob([content]), name);
  const res = await fetch(`${client.base}/api/v1/knowledge_base/upload?folder_id=folder_for_question_channel`, {
    method: 'POST',
    body: form,
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': client.csrf ?? '',
    },
  });
  const body = (await res.json()) as { data: { name_id: { docId: string }[] }; message: string };
  if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${body.message}`);
  const docId = body.data.name_id[0]!.docId;
  for (let i = 0; i < 200; i++) {
    const doc = await client.get<{ parseStatus: number }>(`/api/v1/knowledge_base/doc/${docId}`);
    if (doc.body.data.parseStatus !== 1) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return docId;
}

describe('POST /api/v1/mol/draw_svg', () => {
  it('needs a signed-in user', async () => {
    const anon = server.client();
    const res = await draw(anon, { smiles: 'CCO' });
    expect(res.status).toBe(401);
  });

  it.each(DRUGS)('draws $name with its canonical SMILES, formula and heavy-atom count', async (drug) => {
    const res = await draw(alice, { smiles: drug.smiles, width: 300, height: 240 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ canonical_smiles: drug.canonical, formula: drug.formula, num_atoms: drug.heavyAtoms });
    const svg = inspectSvg(res.body.data.svg);
    expect([svg.width, svg.height]).toEqual(['300px', '240px']);
    expect(svg.bonds.size).toBe(drug.bonds + (drug.drawnHydrogens ?? 0));
    expect(svg.colouredLabels.size).toBe(drug.labelled);
    expect(res.body.data.svg).not.toMatch(/<script|\son\w+=|href|<\?xml/i);
  });

  it('highlights a substructure given as SMARTS', async () => {
    const res = await draw(alice, { smiles: 'CC(=O)Nc1ccc(O)cc1', highlight: { smarts: 'c1ccccc1' } });
    expect(res.status).toBe(200);
    expect(res.body.data.highlighted_atoms).toEqual([4, 5, 6, 7, 9, 10]);
    expect(res.body.data.highlighted_bonds).toHaveLength(6);
    expect(res.body.data.svg).toContain('#FF9933');
  });

  it('highlights atoms and bonds by index', async () => {
    const res = await draw(alice, { smiles: 'CCO', highlight: { atoms: [2], bonds: [1] } });
    expect(res.body.data).toMatchObject({ highlighted_atoms: [2], highlighted_bonds: [1] });
  });

  it('draws a molfile', async () => {
    const molfile = engine.molfile({ smiles: 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C' });
    const res = await draw(alice, { molfile });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ canonical_smiles: 'Cn1c(=O)c2c(ncn2C)n(C)c1=O', formula: 'C8H10N4O2', num_atoms: 14 });
  });

  describe('refuses bad input with 400 and a clear message', () => {
    it.each([
      ['an invalid SMILES', { smiles: 'C1CC' }, 'invalid_smiles', /无法解析 SMILES/, 'smiles'],
      ['an unknown element', { smiles: 'C[Xy]C' }, 'invalid_smiles', /无法解析 SMILES/, 'smiles'],
      ['two structures separated by a space', { smiles: 'CCO CCC' }, 'invalid_smiles', /^SMILES 中不能有空格：一次只能提交一个结构，多个分子请分开提交$/, 'smiles'],
      ['an empty SMILES', { smiles: '' }, 'invalid_input', /^SMILES 不能为空$/, 'smiles'],
      ['a blank SMILES', { smiles: '   ' }, 'invalid_input', /^SMILES 不能为空$/, 'smiles'],
      ['a SMILES of the wrong type', { smiles: 123 }, 'invalid_input', /^SMILES 必须是字符串$/, 'smiles'],
      ['a SMILES that is too long', { smiles: 'C'.repeat(MOL_LIMITS.smilesLength + 1) }, 'invalid_input', /SMILES 不能超过2000个字符/, 'smiles'],
      ['too many atoms to draw', { smiles: 'C'.repeat(MOL_LIMITS.depictHeavyAtoms + 1) }, 'too_many_atoms', /^分子过大：含 501 个原子，上限为 500 个$/, 'smiles'],
      ['an unknown key', { smiles: 'CCO', colour: 'red' }, 'invalid_input', /^不支持的参数：colour$/, 'colour'],
      ['an unknown highlight key', { smiles: 'CCO', highlight: { colour: 'red' } }, 'invalid_input', /^不支持的参数：highlight\.colour$/, 'highlight.colour'],
      ['a width below the range', { smiles: 'CCO', width: 10 }, 'invalid_input', /^宽度不能小于50像素$/, 'width'],
      ['a height above the range', { smiles: 'CCO', height: 5000 }, 'invalid_input', /^高度不能大于2000像素$/, 'height'],
      ['a width as text', { smiles: 'CCO', width: '300' }, 'invalid_input', /^宽度必须是数字$/, 'width'],
      ['a fractional width', { smiles: 'CCO', width: 300.5 }, 'invalid_input', /^宽度必须是整数$/, 'width'],
      ['neither SMILES nor molfile', { width: 300 }, 'invalid_input', /请提供 SMILES 或 Molfile 其中之一/, 'smiles'],
      ['both SMILES and molfile', { smiles: 'CCO', molfile: 'x' }, 'invalid_input', /请提供 SMILES 或 Molfile 其中之一/, 'smiles'],
      ['a molfile that is not one', { molfile: 'just text' }, 'invalid_molfile', /无法解析 Molfile/, 'molfile'],
      ['a molfile over 1 MB', { molfile: 'x'.repeat(MOL_LIMITS.molfileLength + 1) }, 'invalid_input', /Molfile 不能超过1 MB/, 'molfile'],
      ['an invalid SMARTS', { smiles: 'CCO', highlight: { smarts: 'c1ccc(' } }, 'invalid_smarts', /高亮子结构 SMARTS 无效/, 'highlight.smarts'],
      ['an atom index beyond the molecule', { smiles: 'CCO', highlight: { atoms: [7] } }, 'highlight_out_of_range', /高亮原子序号 7 超出范围/, 'highlight.atoms'],
      ['a negative bond index', { smiles: 'CCO', highlight: { bonds: [-1] } }, 'invalid_input', /^高亮键序号不能为负数$/, 'highlight.bonds.0'],
      ['a highlight that is not an object', { smiles: 'CCO', highlight: 'O' }, 'invalid_input', /^highlight 必须是对象$/, 'highlight'],
      ['a body that is an array', [{ smiles: 'CCO' }], 'invalid_input', /请求体必须是 JSON 对象/, ''],
    ])('%s', async (_label, body, code, message, field) => {
      const res = await draw(alice, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ success: false, code });
      expect(res.body.message).toMatch(message);
      if (field) expect(res.body.field).toBe(field);
    });

    it('malformed JSON', async () => {
      const res = await draw(alice, '{"smiles": "CCO"');
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('请求体不是合法的 JSON');
    });

    it('a body beyond the size limit', async () => {
      const res = await draw(alice, { molfile: 'x'.repeat(3 * 1024 * 1024) });
      expect(res.status).toBe(413);
      expect(res.body.message).toBe('请求体过大');
    });
  });

  it('refuses a call without the CSRF headers', async () => {
    const res = await alice.post('/api/v1/mol/draw_svg', { smiles: 'CCO' }, { csrf: false });
    expect(res.status).toBe(403);
  });

  it('answers odd input with 400, never 500', async () => {
    // A fixed pseudo-random sequence so a failure can be replayed.
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = 'CNOSPFIBrcl()[]=#@+-.%0123456789*:/\\$&~!| \n\t\u0000{}"\'<>?HhXxZz的';
    const bodies: unknown[] = [
      { smiles: '[' }, { smiles: ')(' }, { smiles: 'C%999C' }, { smiles: '[C@@@@H]' }, { smiles: '[999999C]' },
      { smiles: 'c1ccccc' }, { smiles: '*' }, { smiles: '[Na+].[Cl-]', highlight: { smarts: '[$([#6;R2]' } },
      { molfile: '\n\n\n  1  0  0  0  0  0  0  0  0  0999 V2000\nM  END' }, { smiles: null }, { smiles: ['CCO'] }, { smiles: { a: 1 } },
      { smiles: 'CCO', highlight: { atoms: 'all' } }, { smiles: 'CCO', highlight: { atoms: [1e30] } }, { smiles: 'CCO', highlight: null },
    ];
    for (let i = 0; i < 40; i++) {
      const len = 1 + Math.floor(next() * 40);
      bodies.push({ smiles: Array.from({ length: len }, () => alphabet[Math.floor(next() * alphabet.length)]).join('') });
    }
    for (const body of bodies) {
      const res = await draw(alice, body);
      expect([200, 400], JSON.stringify(body)).toContain(res.status);
      if (res.status === 400) expect(res.body.message, JSON.stringify(body)).toBeTruthy();
    }
  });

  it('keeps answering after a burst of bad input', async () => {
    const bad = await Promise.all(Array.from({ length: 30 }, (_, i) => draw(alice, { smiles: `C1CC${'C'.repeat(i)}` })));
    expect(bad.every((r) => r.status === 400)).toBe(true);
    const res = await draw(alice, { smiles: 'c1ccccc1' });
    expect(res.status).toBe(200);
    expect(res.body.data.formula).toBe('C6H6');
  });
});

/** A V2000 molfile of a carbon chain of `n` atoms (no title line, as RDKit and Ketcher write it). */
const chainMolfile = (n: number) =>
  [
    '',
    '     RDKit          2D',
    '',
    `${String(n).padStart(3)}${String(n - 1).padStart(3)}  0  0  0  0  0  0  0  0999 V2000`,
    ...Array.from({ length: n }, (_, i) => `${(i * 1.5).toFixed(4).padStart(10)}${'0.0000'.padStart(10)}${'0.0000'.padStart(10)} C   0  0  0  0  0  0  0  0  0  0  0  0`),
    ...Array.from({ length: n - 1 }, (_, i) => `${String(i + 1).padStart(3)}${String(i + 2).padStart(3)}  1  0`),
    'M  END',
    '',
  ].join('\n');

// RDKit's WASM build traps ("memory access out of bounds") on very large structures — a 700-carbon
// chain in canonicalisation — and a trap can leave its memory corrupt for the next call, another
// user's. Every molecule call refuses such a structure, counted from its text, before RDKit reads it.
describe('a structure larger than any molecule call reads', () => {
  const chain = 'C'.repeat(900);
  it.each([
    ['drawing a SMILES', '/api/v1/mol/draw_svg', { smiles: chain }, 'smiles'],
    ['drawing a molfile', '/api/v1/mol/draw_svg', { molfile: chainMolfile(700) }, 'molfile'],
    ['ADMET', '/api/v1/mol/admet', { smiles: [chain] }, undefined],
    ['completing a SMILES', '/api/v1/mol/smiles_completion', { smiles: 'C'.repeat(1999) }, 'smiles'],
    ['a similarity search', '/api/v1/mol/search', { query: 'C'.repeat(1999), mode: 'similarity' }, 'query'],
    ['a search by a drawn molfile', '/api/v1/mol/search', { query: chainMolfile(700), mode: 'exact' }, 'query'],
  ])('%s gets a 400 that says how large it is, and the next call of another user is answered', async (_what, url, body, field) => {
    const res = await alice.post(url, body);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(400);
    expect(res.body.message).toMatch(/分子过大：含 \d+ 个原子，上限为 500 个/);
    expect(res.body.message).not.toMatch(/memory|bounds|RuntimeError/);
    if (field) expect(res.body.field).toBe(field);
    const next = await draw(bob, { smiles: 'CCCCCCCCCCCCCCCCCCCCCCCN' });
    expect(next.status).toBe(200);
    expect(next.body.data.formula).toBe('C23H49N');
  });

  it('a structure at the limit is still read', async () => {
    const res = await draw(alice, { smiles: 'C'.repeat(MOL_LIMITS.atoms) });
    expect(res.status).toBe(200);
    expect(res.body.data.num_atoms).toBe(MOL_LIMITS.atoms);
  });
});

const pdbText = (code: string) =>
  [
    `HEADER    ${'PLANT PROTEIN'.padEnd(40)}30-APR-81   ${code}              `,
    'TITLE     WATER STRUCTURE OF A HYDROPHOBIC PROTEIN AT ATOMIC RESOLUTION',
    'ATOM      1  N   THR A   1      17.047  14.099   3.625  1.00 13.79           N  ',
    'ATOM      2  CA  THR A   1      16.967  12.784   4.338  1.00 10.80           C  ',
    'ATOM      3  C   THR A   1      15.685  12.755   5.133  1.00  9.19           C  ',
    'END',
    '',
  ].join('\n');

describe('GET /api/v1/mol/get_pdb_string', () => {
  let pdbDoc: string;
  beforeAll(async () => {
    pdbDoc = await upload(alice, 'crambin.pdb', pdbText('1CRN'));
  });

  it('needs a signed-in user', async () => {
    expect((await server.client().get('/api/v1/mol/get_pdb_string?pdb_id=1CRN')).status).toBe(401);
  });

  it("finds a structure in the user's own PDB documents by its HEADER id, in any case", async () => {
    const res = await alice.get<{ pdb_id: string; pdb: string; source: string; doc_id: string }>('/api/v1/mol/get_pdb_string?pdb_id=1crn');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ pdb_id: '1CRN', source: 'document', doc_id: pdbDoc });
    expect(res.body.data.pdb).toBe(pdbText('1CRN'));
  });

  it('reads a PDB document by its document id', async () => {
    const res = await alice.get<{ pdb_id: string; pdb: string }>(`/api/v1/mol/get_pdb_string?pdb_id=${pdbDoc}`);
    expect(res.status).toBe(200);
    expect(res.body.data.pdb_id).toBe('1CRN');
  });

  it("does not show another user's structure", async () => {
    const byId = await bob.get(`/api/v1/mol/get_pdb_string?pdb_id=${pdbDoc}`);
    expect(byId.status).toBe(404);
    expect(byId.body.message).toBe('文档不存在');
    const byCode = await bob.get('/api/v1/mol/get_pdb_string?pdb_id=1CRN');
    expect(byCode.status).toBe(404);
    expect(byCode.body.code).toBe('pdb_unavailable');
  });

  it('shows it once the document is shared', async () => {
    const share = await alice.post('/api/v1/knowledge_base/share_doc', { docId: pdbDoc, user_ids: [bobId] });
    expect(share.status).toBe(200);
    const res = await bob.get<{ doc_id: string }>('/api/v1/mol/get_pdb_string?pdb_id=1CRN');
    expect(res.status).toBe(200);
    expect(res.body.data.doc_id).toBe(pdbDoc);
  });

  it('says plainly that an id is not available offline', async () => {
    const res = await alice.get('/api/v1/mol/get_pdb_string?pdb_id=4hhb');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('pdb_unavailable');
    expect(res.body.message).toMatch(/^PDB 结构 4HHB 在离线环境中不可用/);
  });

  it.each([
    ['no id', '', /pdb_id/],
    ['an id with odd characters', '?pdb_id=1CRN%3Cscript%3E', /pdb_id 只能包含字母、数字、下划线和连字符/],
    ['a path', '?pdb_id=..%2F..%2Fetc%2Fpasswd', /pdb_id 只能包含/],
    ['an unknown parameter', '?pdb_id=1CRN&x=1', /不支持的参数：x/],
  ])('refuses %s with 400', async (_label, query, message) => {
    const res = await alice.get(`/api/v1/mol/get_pdb_string${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('refuses a document id that is not a PDB file', async () => {
    const sdfDoc = await upload(alice, 'ethanol.sdf', sdfText(['CCO']));
    const res = await alice.get(`/api/v1/mol/get_pdb_string?pdb_id=${sdfDoc}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('该文档不是 PDB 结构文件');
  });

  it('unknown document ids are 404', async () => {
    const res = await alice.get('/api/v1/mol/get_pdb_string?pdb_id=doesNotExist12345');
    expect(res.status).toBe(404);
  });
});

describe('the PDB mirror goes through the SSRF-safe client', () => {
  let mirrored: TestServer;
  let carol: Client;
  beforeAll(async () => {
    // A mirror on the loopback interface: the client must refuse it rather than fetch from it.
    mirrored = await startServer({ CSAI_PDB_MIRROR: `http://127.0.0.1:${new URL(server.url).port}/{id}.pdb` });
    carol = (await signedInUser(mirrored)).client;
  });
  afterAll(() => mirrored.close());

  it('refuses a mirror on a loopback address with 502 and says why', async () => {
    const res = await carol.get('/api/v1/mol/get_pdb_string?pdb_id=1CRN');
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('pdb_mirror_failed');
    expect(res.body.message).toContain('拒绝访问内网或保留地址：127.0.0.1');
  });

  it('refuses a mirror template that is not http(s)', async () => {
    await expect(startServer({ CSAI_PDB_MIRROR: 'file:///srv/pdb/{id}.pdb' })).rejects.toThrow(/CSAI_PDB_MIRROR/);
  });
});

describe('GET /api/v1/mol/get_mol_string', () => {
  let sdfDoc: string;
  let pdbDoc: string;
  /** The SDF parser's index of the first record (kb_molecules.idx). */
  let first = 1;
  beforeAll(async () => {
    sdfDoc = await upload(alice, 'two.sdf', sdfText(['CC(=O)Oc1ccccc1C(=O)O', 'c1ccccc1']));
    pdbDoc = await upload(alice, 'other.pdb', pdbText('2PTC'));
    // The SDF parser stores one kb_molecules row per record; when it has not (yet), store them here.
    const db = server.sqlite();
    try {
      const stored = db.prepare('select count(*) as n, min(idx) as first from kb_molecules where doc_id = ?').get(sdfDoc) as { n: number; first: number | null };
      if (stored.n === 0) {
        const insert = db.prepare('insert into kb_molecules (doc_id, idx, name, smiles, molfile, properties) values (?, ?, ?, ?, ?, ?)');
        ['CC(=O)Oc1ccccc1C(=O)O', 'c1ccccc1'].forEach((s, i) => insert.run(sdfDoc, i + 1, `mol${i}`, null, engine.molfile({ smiles: s }), '{}'));
      } else {
        expect(stored.n).toBe(2);
        first = stored.first ?? 1;
      }
    } finally {
      db.close();
    }
  });

  it('needs a signed-in user', async () => {
    expect((await server.client().get(`/api/v1/mol/get_mol_string?mol_key=${sdfDoc}:0`)).status).toBe(401);
  });

  it('gives one molecule of an SDF document as a molfile', async () => {
    const res = await alice.get<{ mol_key: string; molfile: string; smiles: string }>(`/api/v1/mol/get_mol_string?mol_key=${sdfDoc}:${first}`);
    expect(res.status).toBe(200);
    expect(res.body.data.mol_key).toBe(`${sdfDoc}:${first}`);
    expect(res.body.data.molfile).toMatch(/V2000[\s\S]*M {2}END/);
    expect(res.body.data.smiles).toBe('CC(=O)Oc1ccccc1C(=O)O');
    const drawn = await draw(alice, { molfile: res.body.data.molfile });
    expect(drawn.body.data.formula).toBe('C9H8O4');
    const second = await alice.get<{ smiles: string }>(`/api/v1/mol/get_mol_string?mol_key=${sdfDoc}:${first + 1}`);
    expect(second.body.data.smiles).toBe('c1ccccc1');
  });

  it('404 for an index the document does not have', async () => {
    const res = await alice.get(`/api/v1/mol/get_mol_string?mol_key=${sdfDoc}:99`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('文档中没有序号为 99 的分子');
  });

  it("404 for another user's document, as for a missing one", async () => {
    expect((await bob.get(`/api/v1/mol/get_mol_string?mol_key=${sdfDoc}:${first}`)).body).toMatchObject({ code: 'not_found', message: '文档不存在' });
    expect((await alice.get('/api/v1/mol/get_mol_string?mol_key=nope1234567890:0')).status).toBe(404);
  });

  it('400 for a document that is not an SDF', async () => {
    const res = await alice.get(`/api/v1/mol/get_mol_string?mol_key=${pdbDoc}:0`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('该文档不是 SDF 分子文件，没有可读取的分子');
  });

  it.each([
    ['no key', ''],
    ['a key without an index', '?mol_key=abc'],
    ['a negative index', '?mol_key=abc:-1'],
    ['a key with odd characters', '?mol_key=a%20b:1'],
    ['an unknown parameter', '?mol_key=abc:1&y=2'],
  ])('400 for %s', async (_label, query) => {
    const res = await alice.get(`/api/v1/mol/get_mol_string${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBeTruthy();
  });
});
