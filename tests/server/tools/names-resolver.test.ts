import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAiEngine } from '../../../src/server/answering/openai-engine';
import { createChemService } from '../../../src/server/chem/service';
import { loadConfig, type Config } from '../../../src/server/config';
import { createNameResolver } from '../../../src/server/tools/names/resolver';
import { ToolInputError } from '../../../src/server/tools/types';
import { startChatServer } from '../fake-llm';

const ASPIRIN = { canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', inchiKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N' };
const warnings: string[] = [];
const log = { warn: (_obj: object, msg: string) => void warnings.push(msg), info: () => undefined };
const chem = createChemService({ workers: 1 });
const signal = () => AbortSignal.timeout(30_000);

/** A small HTTP server on 127.0.0.1 answering with `handle`; records the requests. */
async function fakeServer(handle: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void) {
  const requests: Array<{ url: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', body });
      handle(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** The OpenAI-compatible model (fake-llm.ts): the reply depends on the name asked about. */
const MODEL_REPLIES: Record<string, string | 'http500' | 'hang'> = {
  'Exjade': 'N-[(4-hydroxy-3-methoxyphenyl)methyl]-8-methylnon-6-enamide', // deliberately not the real one: OPSIN just confirms a name
  'Fantasyol': 'UNKNOWN',
  'Inventium': 'hexakis(flubbergyl)quuxane',
  'Overloaded': 'http500',
  'Sleepy': 'hang',
  'Chatty': '```\n"2-hydroxybenzoic acid"\n```',
};
let llm: Awaited<ReturnType<typeof startChatServer>>;
let pug: Awaited<ReturnType<typeof fakeServer>>;

beforeAll(async () => {
  llm = await startChatServer((request, out) => {
    const reply = MODEL_REPLIES[request.messages.at(-1)!.content ?? ''] ?? 'UNKNOWN';
    if (reply === 'hang') return; // never answers
    if (reply === 'http500') return out.fail(500, 'overloaded');
    out.chunk({ role: 'assistant', content: reply.slice(0, 5) });
    out.chunk({ content: reply.slice(5) });
    out.finish();
  });
  // PUG REST: /compound/name/{name}/property/IsomericSMILES,InChIKey/JSON
  pug = await fakeServer((req, _body, res) => {
    const name = decodeURIComponent(/\/compound\/name\/([^/]+)\//.exec(req.url ?? '')?.[1] ?? '');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (name === 'Pugtestin') return json(200, { PropertyTable: { Properties: [{ CID: 1, SMILES: 'C([C@@H]1[C@H]([C@@H]([C@H](C(O1)O)N)O)O)O' }] } });
    if (name === 'Oldpugtestin') return json(200, { PropertyTable: { Properties: [{ CID: 2, IsomericSMILES: 'CC(C)NCC(O)c1ccc(O)c(O)c1', InChIKey: 'whatever' }] } });
    if (name === 'Garbage answer') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>maintenance</html>');
      return;
    }
    if (name === 'Bad structure') return json(200, { PropertyTable: { Properties: [{ CID: 3, SMILES: 'C1CC(' }] } });
    if (name === 'Slow service') return; // never answers
    if (name === 'Broken service') return json(503, { Fault: { Code: 'PUGREST.ServerBusy' } });
    json(404, { Fault: { Code: 'PUGREST.NotFound', Message: 'No CID found' } });
  });
});
afterAll(async () => {
  await chem.close();
  await llm?.close();
  await pug?.close();
});

const config = (env: Record<string, string> = {}): Config => loadConfig({ CSAI_DATA_DIR: '/tmp/unused', ...env });

describe('name → structure, offline (OPSIN and the dictionary)', () => {
  const names = createNameResolver({ config: config(), chem, log });
  afterAll(() => names.close());

  it('parses systematic and CAS index names with OPSIN, canonicalised by RDKit with the InChIKey', async () => {
    expect(await names.resolve('2-acetyloxybenzoic acid', signal())).toEqual({ name: '2-acetyloxybenzoic acid', ...ASPIRIN, source: 'opsin' });
    expect(await names.resolve('Benzoic acid, 2-(acetyloxy)-', signal())).toMatchObject({ ...ASPIRIN, source: 'opsin' });
  });

  it('finds Chinese, trade and INN names in the dictionary', async () => {
    expect(await names.resolve('阿司匹林', signal())).toEqual({ name: '阿司匹林', ...ASPIRIN, source: 'dictionary' });
    expect(await names.resolve('Aspirin', signal())).toMatchObject({ ...ASPIRIN, source: 'dictionary' });
    const imatinib = await names.resolve('伊马替尼', signal());
    expect(imatinib).toMatchObject({ source: 'dictionary', inchiKey: 'KTUFNOKKBVMGRW-UHFFFAOYSA-N' });
    expect(await names.resolve('Gleevec', signal())).toEqual({ ...imatinib, name: 'Gleevec' });
    expect(await names.resolve('布洛芬', signal())).toMatchObject({ canonicalSmiles: 'CC(C)Cc1ccc(C(C)C(=O)O)cc1', inchiKey: 'HEFNNWSXXWATRW-UHFFFAOYSA-N' });
    expect(await names.resolve('对乙酰氨基酚', signal())).toMatchObject({ canonicalSmiles: 'CC(=O)Nc1ccc(O)cc1', inchiKey: 'RZVAJINKPMORJF-UHFFFAOYSA-N' });
  });

  it('says null for a name nobody knows, never a guess', async () => {
    expect(await names.resolve('unobtainium hydrochloride', signal())).toBeNull();
    expect(await names.resolve('某种不存在的药', signal())).toBeNull();
  });

  it('refuses empty, overlong and control-character names with a Chinese message', async () => {
    await expect(names.resolve('   ', signal())).rejects.toThrow(new ToolInputError('化学名称不能为空'));
    await expect(names.resolve('x'.repeat(501), signal())).rejects.toThrow('化学名称不能超过500个字符');
    await expect(names.resolve('eth\u0000anol', signal())).rejects.toThrow('化学名称包含不允许的控制字符');
  });

  it('is available, and its availability names OPSIN', () => {
    expect(names.availability()).toEqual({ enabled: true });
  });
});

describe('without OPSIN', () => {
  const names = createNameResolver({ config: config(), chem, log, opsin: { jar: '/nonexistent/opsin-cli.jar' } });
  afterAll(() => names.close());

  it('says exactly what to install, and the dictionary still answers', async () => {
    const av = names.availability();
    expect(av.enabled).toBe(false);
    if (!av.enabled) expect(av.reason).toContain('apt-get install -y libopsin-java default-jre-headless');
    expect(await names.resolve('阿司匹林', signal())).toMatchObject({ ...ASPIRIN, source: 'dictionary' });
    // A systematic name the dictionary does not hold needs OPSIN.
    expect(await names.resolve('2-methylpentan-3-ol', signal())).toBeNull();
  });
});

describe('with a model configured', () => {
  const engine = () => openAiEngine({ baseURL: llm.url, model: 'm', idleTimeoutMs: 2000 });
  let names: ReturnType<typeof createNameResolver>;
  beforeAll(() => {
    names = createNameResolver({ config: config(), chem, log, chat: engine().chat, modelTimeoutMs: 1500 });
  });
  afterAll(() => names.close());

  it('takes the systematic name the model proposes once OPSIN confirms it', async () => {
    expect(await names.resolve('Exjade', signal())).toMatchObject({ source: 'model+opsin', canonicalSmiles: 'COc1cc(CNC(=O)CCCCC=CC(C)C)ccc1O' });
    const asked = JSON.stringify(llm.requests.at(-1)!.messages);
    expect(asked).toContain('Exjade');
    expect(asked).toContain('UNKNOWN');
  });

  it('strips quotes and code fences around the proposed name', async () => {
    expect(await names.resolve('Chatty', signal())).toMatchObject({ source: 'model+opsin', inchiKey: 'YGSDEFSMJLZEOE-UHFFFAOYSA-N' });
  });

  it('returns null when the model does not know, invents a name OPSIN cannot read, fails or hangs', async () => {
    expect(await names.resolve('Fantasyol', signal())).toBeNull();
    expect(await names.resolve('Inventium', signal())).toBeNull();
    expect(await names.resolve('Overloaded', signal())).toBeNull();
    const started = Date.now();
    expect(await names.resolve('Sleepy', signal())).toBeNull();
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);

  it('does not ask the model about names the dictionary knows', async () => {
    const before = llm.requests.length;
    expect(await names.resolve('布洛芬', signal())).toMatchObject({ source: 'dictionary' });
    expect(llm.requests.length).toBe(before);
  });
});

describe('with a PubChem-compatible service configured', () => {
  let names: ReturnType<typeof createNameResolver>;
  beforeAll(() => {
    names = createNameResolver({
      config: config({ CSAI_PUBCHEM_URL: `${pug.url}/rest/pug/` }),
      chem,
      log,
      fetchOptions: { isAllowedAddress: (a) => a === '127.0.0.1' },
      pubchemTimeoutMs: 800,
    });
  });
  afterAll(() => names.close());

  it('asks it last, by PUG REST, and canonicalises its SMILES with RDKit', async () => {
    const found = await names.resolve('Pugtestin', signal());
    expect(found).toMatchObject({ source: 'pubchem', canonicalSmiles: 'N[C@H]1C(O)O[C@H](CO)[C@@H](O)[C@@H]1O' });
    expect(found?.inchiKey).toMatch(/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/);
    expect(pug.requests.at(-1)!.url).toBe('/rest/pug/compound/name/Pugtestin/property/IsomericSMILES,InChIKey/JSON');
    // A service answering in the older field names, and its InChIKey is recomputed, not trusted.
    expect(await names.resolve('Oldpugtestin', signal())).toMatchObject({ source: 'pubchem', inchiKey: 'JWZZKOKVBUJMES-UHFFFAOYSA-N' });
  });

  it('is not asked when OPSIN or the dictionary knows the name', async () => {
    const before = pug.requests.length;
    expect(await names.resolve('阿司匹林', signal())).toMatchObject({ source: 'dictionary' });
    expect(pug.requests.length).toBe(before);
  });

  it('returns null on 404, a busy service, garbage, an unreadable structure and a timeout', async () => {
    for (const name of ['Nopugtestin', 'Broken service', 'Garbage answer', 'Bad structure']) {
      expect(await names.resolve(name, signal()), name).toBeNull();
    }
    const started = Date.now();
    expect(await names.resolve('Slow service', signal())).toBeNull();
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('goes through the SSRF-safe client: with the default policy 127.0.0.1 is refused', async () => {
    const strict = createNameResolver({ config: config({ CSAI_PUBCHEM_URL: `${pug.url}/rest/pug` }), chem, log });
    const before = pug.requests.length;
    warnings.length = 0;
    expect(await strict.resolve('Pugtestin', signal())).toBeNull();
    expect(pug.requests.length).toBe(before);
    expect(warnings).toContain('pubchem name lookup failed');
    await strict.close();
  });
});

describe('CSAI_PUBCHEM_URL', () => {
  it('must be an http(s) URL without a query', () => {
    expect(config({ CSAI_PUBCHEM_URL: 'https://pubchem.ncbi.nlm.nih.gov/rest/pug/' }).CSAI_PUBCHEM_URL).toBe('https://pubchem.ncbi.nlm.nih.gov/rest/pug');
    expect(config({ CSAI_PUBCHEM_URL: '' }).CSAI_PUBCHEM_URL).toBeUndefined();
    expect(() => config({ CSAI_PUBCHEM_URL: 'ftp://example.com/pug' })).toThrow(/CSAI_PUBCHEM_URL/);
    expect(() => config({ CSAI_PUBCHEM_URL: 'https://example.com/pug?x=1' })).toThrow(/CSAI_PUBCHEM_URL/);
  });
});
