import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ToolName } from '../../../../src/contract/tools';
import { signedInUser, startServer, type Client, type TestServer } from '../../helpers';
import { ask, readEvents, startFakeLlm } from '../../answering-helpers';
import { testTools } from '../../tool-stand-ins';
import { readFileSync } from 'node:fs';
import { upload } from '../../knowledge-helpers';

let llm: Awaited<ReturnType<typeof startFakeLlm>>;
let server: TestServer;
let alice: Client;
let token: string;
// A page for page_crawl to read (the test policy lets it reach 127.0.0.1).
const site = http.createServer((req, res) => {
  if (req.url === '/robots.txt') return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<html><head><title>Aspirin</title></head><body><article><h1>Aspirin</h1><p>${'Aspirin inhibits cyclooxygenase and is used against pain and fever. '.repeat(8)}</p></article></body></html>`);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  examples.page_crawl = { url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/aspirin` };
  llm = await startFakeLlm();
  server = await startServer({ LLM_BASE_URL: llm.url, LLM_MODEL: 'chat-model' }, undefined, { tools: testTools() });
  alice = (await signedInUser(server)).client;
  token = (await alice.post<{ token: string }>('/api/v1/auth/tokens', { name: 'MCP 客户端' })).body.data.token;
  // A receptor for docking_submit's example (the job it queues is stopped with the server).
  await upload(alice, [{ name: '5dpv.pdb', data: readFileSync('/usr/share/RDKit/Contrib/CalcLigRMSD/data/5dpv.pdb') }], 'folder_for_question_channel');
});
afterAll(async () => {
  site.closeAllConnections();
  site.close();
  await server?.close();
  await llm?.close();
});

/** An MCP client as an editor or agent would configure it: the URL and an Authorization header. */
async function connect(bearer = token) {
  const client = new McpClient({ name: 'csai-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  return client;
}

/** A valid input for each tool, as a chemist would send it. */
const examples: Partial<Record<ToolName, Record<string, unknown>>> = {
  admet: { molecules: ['CC(=O)Oc1ccccc1C(=O)O'] },
  name_to_smiles: { name: 'aspirin' },
  smiles_completion: { smiles: 'CC(=O)Oc1ccccc1C(=O' },
  intelligence_search: { query: '阿司匹林' },
  code_execution: { code: 'print(6 * 7)' },
  docking_submit: { smiles: 'CCO', receptor: '5DPV', exhaustiveness: 1 },
  task_query: {},
};

const enabledTools = async () => {
  const res = await alice.get<Array<{ tools: Array<{ value: string; enabled: boolean }> }>>('/api/v1/tools');
  return res.body.data.flatMap((g) => g.tools).filter((t) => t.enabled).map((t) => t.value);
};

describe('/mcp', () => {
  it('needs an API token: 401 without one, and a browser session is not enough', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const none = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await none.json()) as { message: string }).message).toContain('API 令牌');
    const bad = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer csai_wrong' }, body: JSON.stringify(init) });
    expect(bad.status).toBe(401);
    const session = await alice.post('/mcp', init, { headers: { accept: 'application/json, text/event-stream' } });
    expect(session.status).toBe(401);
    await expect(connect('csai_wrong')).rejects.toThrow();
  });

  it('lists every usable tool of the registry, with the names and input schemas the model is offered', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual((await enabledTools()).sort());
      // The model's function definitions for the same tools (every tool on), as the fake model received them.
      const { questionId } = await ask(alice, '[tool] 工具定义');
      await readEvents(alice, questionId);
      const offered = llm.requests.find((r) => r.messages.some((m) => (m.content ?? '').includes('[tool] 工具定义')))!.tools as Array<{ function: { name: string; description: string; parameters: unknown } }>;
      expect(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }))).toEqual(offered.map((o) => o.function));
    } finally {
      await client.close();
    }
  });

  it('calls every listed tool as the token\'s user and gives its text and structured result', async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        const input = examples[tool.name as ToolName];
        expect(input, `add an example input for ${tool.name}`).toBeDefined();
        const result = await client.callTool({ name: tool.name, arguments: input });
        expect(result.isError, `${tool.name}: ${JSON.stringify(result.content)}`).toBe(false);
        expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
        expect(result.structuredContent).toBeDefined();
      }
    } finally {
      await client.close();
    }
  });

  it('answers bad input, a disabled tool and an unknown tool with an error result in Chinese, never a failed request', async () => {
    const client = await connect();
    try {
      const [first] = (await client.listTools()).tools;
      for (const [name, args] of [
        [first!.name, { nonsense: 'x'.repeat(300_000) }],
        [first!.name, {}],
        ['web_search', { query: 'x' }],
        ['no_such_tool', {}],
      ] as const) {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        const [content] = result.content as Array<{ type: string; text: string }>;
        expect(content!.text).toMatch(/\p{Script=Han}/u);
      }
    } finally {
      await client.close();
    }
  });

  it('code_execution mounts the files the token\'s user may read, named by title or id, and no one else\'s (issue 33)', async () => {
    const sdf = readFileSync('/usr/share/RDKit/Contrib/Fastcluster/testdata/cdk2.sdf');
    const up = await upload(alice, [{ name: 'cdk2 ligands.sdf', data: sdf }], 'folder_for_question_channel');
    const docId = up.body.data.name_id[0]!.docId;
    const records = sdf.toString('utf8').split('$$$$').length - 1;
    const code = 'import os\nfor n in sorted(os.listdir("/input")):\n    print(n, open("/input/" + n).read().count("$$$$"))';
    const client = await connect();
    try {
      for (const ref of ['cdk2 ligands.sdf', 'CDK2 LIGANDS.SDF', docId]) {
        const result = await client.callTool({ name: 'code_execution', arguments: { code, files: [ref] } });
        expect(result.isError, JSON.stringify(result.content)).toBe(false);
        expect((result.structuredContent as { stdout: string }).stdout).toBe(`cdk2 ligands.sdf ${records}\n`);
      }
      const missing = await client.callTool({ name: 'code_execution', arguments: { code, files: ['no such file.sdf'] } });
      expect(missing.isError).toBe(true);
      expect((missing.content as Array<{ text: string }>)[0]!.text).toContain('文件“no such file.sdf”不存在，或你无权读取');
    } finally {
      await client.close();
    }
    // Another user's token cannot mount it, by id or by title.
    const bob = (await signedInUser(server)).client;
    const bobToken = (await bob.post<{ token: string }>('/api/v1/auth/tokens', { name: 'MCP' })).body.data.token;
    const other = await connect(bobToken);
    try {
      for (const ref of [docId, 'cdk2 ligands.sdf']) {
        const result = await other.callTool({ name: 'code_execution', arguments: { code, files: [ref] } });
        expect(result.isError).toBe(true);
        expect((result.content as Array<{ text: string }>)[0]!.text).toContain('不存在，或你无权读取');
      }
    } finally {
      await other.close();
    }
  });

  it('speaks English to a token whose user reads English: tool titles, descriptions and error results', async () => {
    const carol = (await signedInUser(server)).client;
    expect((await carol.request('PUT', '/api/v1/auth/me/language', { body: { language: 'en' } })).status).toBe(200);
    const carolToken = (await carol.post<{ token: string }>('/api/v1/auth/tokens', { name: 'MCP' })).body.data.token;
    const client = await connect(carolToken);
    try {
      const { tools } = await client.listTools();
      const admet = tools.find((t) => t.name === 'admet')!;
      expect(admet.title).toBe('ADMET calculation');
      for (const t of tools) expect(`${t.title} ${t.description}`).not.toMatch(/\p{Script=Han}/u);
      const bad = await client.callTool({ name: 'admet', arguments: {} });
      expect(bad.isError).toBe(true);
      const [content] = bad.content as Array<{ type: string; text: string }>;
      expect(content!.text).not.toMatch(/\p{Script=Han}/u);
    } finally {
      await client.close();
    }
  });

  it('refuses GET and DELETE (stateless: no stream, no session)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${server.url}/mcp`, { method, headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(405);
    }
  });
});
