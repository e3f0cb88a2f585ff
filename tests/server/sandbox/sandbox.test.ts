import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeExecutionResult } from '../../../src/contract/code';
import { makeAdmin, signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { upload, waitParsed } from '../knowledge-helpers';
import { answerText, ask, readEvents } from '../answering-helpers';
import { until } from '../until';

// postgres: sqlite-only — its subject is what bubblewrap lets hostile code do; the run rows are those sandbox/code-runs.test.ts covers on PostgreSQL.

// Hostile code against the real bubblewrap sandbox through POST /api/v1/code/run.
// Every case must end with a clear Chinese message and leave the server answering.

const SDF = '/usr/share/RDKit/Contrib/Fastcluster/testdata/cdk2.sdf';
const SECRET_NAME = 'CSAI_SANDBOX_TEST_SECRET';
const SECRET = `s3cret-${randomBytes(12).toString('hex')}`;

let server: TestServer;
let alice: Client;

beforeAll(async () => {
  // The server's own environment holds a secret; sandboxed code must never see it.
  process.env[SECRET_NAME] = SECRET;
  // One user runs the file's many escape attempts within a minute: beyond the per-minute run limit
  // (tests/server/sandbox/code-quota.test.ts checks that limit itself).
  server = await startServer({ CSAI_SANDBOX_TIMEOUT_MS: '8000', CSAI_SANDBOX_CPU_SECONDS: '6', CSAI_CODE_RUNS_PER_MINUTE: '1000' });
  ({ client: alice } = await signedInUser(server));
});

afterAll(async () => {
  delete process.env[SECRET_NAME];
  await server?.close();
}, 120_000);

async function run(code: string, docIds: string[] = [], client = alice) {
  const res = await client.post<CodeExecutionResult>('/api/v1/code/run', { code, doc_ids: docIds });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

/** The server still answers, and the sandbox still runs code, after a hostile run. */
async function stillHealthy() {
  const tools = await alice.get<Array<{ tools: Array<{ value: string; enabled: boolean }> }>>('/api/v1/tools');
  expect(tools.status).toBe(200);
  expect(tools.body.data.flatMap((g) => g.tools).find((t) => t.value === 'code_execution')?.enabled).toBe(true);
  const ok = await run('print(6 * 7)');
  // What the run said when it did not end well (a lost run names why in its message and stderr).
  expect(ok.status, `${ok.message} ${ok.stderr}`).toBe('ok');
  expect(ok.stdout).toBe('42\n');
}

describe('code execution: a chemist plots molecular weights from an SDF', () => {
  // A server with the product's own time limit: importing RDKit and matplotlib (which builds its
  // font cache in each fresh sandbox) once took longer than the 8 s the hostile cases above are
  // given, with the rest of the suite running beside it on two cores.
  let plotServer: TestServer;
  let owner: Client;
  let other: Client;
  beforeAll(async () => {
    plotServer = await startServer();
    ({ client: owner } = await signedInUser(plotServer));
    ({ client: other } = await signedInUser(plotServer));
  });
  afterAll(async () => {
    await plotServer?.close();
  }, 120_000);

  it('mounts the SDF read-only, runs RDKit and matplotlib, and keeps the PNG as an artifact only its owner can read', { timeout: 120_000 }, async () => {
    const up = await upload(owner, [{ name: 'cdk2.sdf', data: fs.readFileSync(SDF) }]);
    expect(up.status).toBe(200);
    const docId = up.body.data.name_id[0]!.docId;
    await waitParsed(owner, docId);
    const code = [
      'import os',
      'from rdkit import Chem',
      'from rdkit.Chem import Descriptors',
      'import matplotlib.pyplot as plt',
      'print(os.listdir("/input"))',
      'mws = [Descriptors.MolWt(m) for m in Chem.SDMolSupplier("/input/cdk2.sdf") if m]',
      'print(len(mws), round(min(mws), 1), round(max(mws), 1))',
      'plt.hist(mws, bins=10); plt.xlabel("MW"); plt.savefig("mw.png")',
      'open("mws.csv", "w").write("\\n".join(map(str, mws)))',
      'try:\n    open("/input/cdk2.sdf", "a").write("x")\nexcept OSError as e:\n    print("read-only", e.errno)',
    ].join('\n');
    const out = await run(code, [docId], owner);
    expect(out.status, out.stderr).toBe('ok');
    expect(out.message).toBe('运行完成');
    expect(out.inputs).toEqual(['cdk2.sdf']);
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]).toBe("['cdk2.sdf']");
    expect(lines[1]).toMatch(/^47 \d+\.\d \d+\.\d$/);
    expect(lines[2]).toMatch(/^read-only (13|30)$/); // EACCES or EROFS
    const png = out.artifacts.find((a) => a.name === 'mw.png')!;
    expect(png).toMatchObject({ kind: 'image', mime: 'image/png' });
    expect(out.artifacts.find((a) => a.name === 'mws.csv')).toMatchObject({ kind: 'file' });

    const res = await fetch(`${plotServer.url}/api/v1/code/artifacts/${png.id}`, { headers: { cookie: [...owner.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect(bytes.length).toBe(png.size);
    // Another user, or nobody, cannot read it (and cannot tell it exists).
    expect((await other.get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(404);
    expect((await plotServer.client().get(`/api/v1/code/artifacts/${png.id}`)).status).toBe(401);
    // The other user cannot mount the owner's document either.
    const refused = await other.post('/api/v1/code/run', { code: 'print(1)', doc_ids: [docId] });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/不在所附的文档中，或你无权读取/);
  });
});

describe('code typed in the question box, without a model', () => {
  // The product's own time limit, as for the plot above: importing numpy and matplotlib beside
  // the rest of the suite on two cores once outlasted the 8 s the hostile cases are given.
  let askServer: TestServer;
  let asker: Client;
  let stranger: Client;
  beforeAll(async () => {
    askServer = await startServer();
    ({ client: asker } = await signedInUser(askServer));
    ({ client: stranger } = await signedInUser(askServer));
  });
  afterAll(async () => {
    await askServer?.close();
  }, 120_000);
  const channel = async () => (await asker.post<{ id: string }>('/api/v1/channel', { name: '代码' })).body.data.id;

  it('a ```python block sent with the code tool runs in the sandbox and its result is a tool card of the answer', { timeout: 120_000 }, async () => {
    const question = '帮我运行：\n```python\nimport numpy as np\nprint(np.arange(5).sum())\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3]); plt.savefig("line.svg")\n```';
    const { questionId } = await ask(asker, question, { tools_name: ['code_execution'] }, await channel());
    const { events } = await readEvents(asker, questionId);
    const call = events.find((e) => e.event === 'tool_call')!;
    expect(call.data).toMatchObject({ name: 'code_execution' });
    expect(JSON.parse(String(call.data.arguments))).toEqual({ code: 'import numpy as np\nprint(np.arange(5).sum())\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3]); plt.savefig("line.svg")' });
    const result = events.find((e) => e.event === 'tool_result')!.data as { ok: boolean; data: CodeExecutionResult };
    expect(result.ok).toBe(true);
    expect(result.data.status, `${result.data.message} ${result.data.stderr}`).toBe('ok');
    expect(result.data.stdout).toBe('10\n');
    expect(result.data.artifacts).toEqual([expect.objectContaining({ name: 'line.svg', kind: 'image', mime: 'image/svg+xml' })]);
    expect(answerText(events)).toContain('代码生成与执行：已完成');
    // The picture stays readable with the answer, to its asker only, and runs nothing when opened on its own.
    const svg = await asker.get(`/api/v1/code/artifacts/${result.data.artifacts[0]!.id}`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await stranger.get(`/api/v1/code/artifacts/${result.data.artifacts[0]!.id}`)).status).toBe(404);
  });

  it('with the code tool off, a python block is not run', async () => {
    const { questionId } = await ask(asker, '```python\nprint(1)\n```', { tools_name: [] }, await channel());
    const { events } = await readEvents(asker, questionId);
    expect(events.filter((e) => e.event === 'tool_call')).toEqual([]);
  });
});

describe('kept files', () => {
  it('are pictures only when their content says so; other files are downloads', async () => {
    const code = [
      'open("fake.png", "w").write("<script>alert(1)</script>")',
      'open("fake.svg", "w").write("<html><script>alert(1)</script></html>")',
      'open("notes.txt", "w").write("hello")',
      'import os; os.makedirs("sub", exist_ok=True); open("sub/data.csv", "w").write("a,b")',
      'for i in range(30):\n    open(f"zz_{i:02d}.bin", "wb").write(b"x")',
    ].join('\n');
    const out = await run(code);
    expect(out.status, out.stderr).toBe('ok');
    const byName = new Map(out.artifacts.map((a) => [a.name, a]));
    expect(byName.get('fake.png')).toMatchObject({ kind: 'file', mime: 'application/octet-stream' });
    expect(byName.get('fake.svg')).toMatchObject({ kind: 'file', mime: 'application/octet-stream' });
    expect(byName.get('notes.txt')).toMatchObject({ kind: 'file', mime: 'text/plain; charset=utf-8' });
    // At most 20 files come back (the work directory in name order, then its folders); the rest are named as not kept.
    expect(out.artifacts).toHaveLength(20);
    expect(out.skipped_files.length).toBe(14);
    expect(out.skipped_files).toContainEqual({ name: 'sub/data.csv', size: 3 });
    expect(out.message).toMatch(/14 个文件超过保留上限（最多 20 个/);
    const download = await alice.get(`/api/v1/code/artifacts/${byName.get('notes.txt')!.id}`);
    expect(download.status, JSON.stringify(download.body)).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/attachment/);
  });
});

describe('hostile code is contained', () => {
  it('has no network: neither a port the server machine listens on nor an outside address', async () => {
    let connections = 0;
    const listener = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const code = [
        'import socket',
        `for host, port in [("127.0.0.1", ${port}), ("1.1.1.1", 80), ("8.8.8.8", 53)]:`,
        '    try:',
        '        socket.create_connection((host, port), timeout=3)',
        '        print("connected", host)',
        '    except OSError as e:',
        '        print("blocked", host, e.errno)',
        'socket.getaddrinfo("example.com", 80)',
      ].join('\n');
      const out = await run(code);
      expect(out.stdout).not.toMatch(/connected/);
      expect(out.stdout.trim().split('\n')).toHaveLength(3);
      expect(out.status).toBe('error');
      expect(out.message).toMatch(/沙箱内没有网络连接/);
      expect(connections).toBe(0);
    } finally {
      listener.close();
    }
    await stillHealthy();
  });

  it('cannot read /etc/shadow, the data directory, the source tree or the server\'s environment', async () => {
    const code = [
      'import os, glob',
      `for p in ["/etc/shadow", "/etc/passwd", ${JSON.stringify(path.join(server.dataDir, 'csai.sqlite'))}, ${JSON.stringify(path.join(process.cwd(), 'package.json'))}, "/root/.bashrc"]:`,
      '    try:',
      '        open(p).read(); print("READ", p)',
      '    except OSError as e:',
      '        print("denied", e.errno)',
      'print("env", sorted(os.environ))',
      'found = []',
      'for f in glob.glob("/proc/*/environ") + glob.glob("/proc/*/cmdline"):',
      '    try:',
      `        if b${JSON.stringify(SECRET)} in open(f, "rb").read(): found.append(f)`,
      '    except OSError:',
      '        pass',
      'print("secret", found)',
      'print(sorted(os.listdir("/")))',
    ].join('\n');
    const out = await run(code);
    expect(out.status, out.stderr).toBe('ok');
    expect(out.stdout).not.toMatch(/^READ/m);
    expect(out.stdout.match(/denied 2/g)).toHaveLength(5); // ENOENT: none of them exists inside
    expect(out.stdout).not.toContain(SECRET);
    expect(out.stdout).not.toContain(SECRET_NAME);
    expect(out.stdout).toMatch(/secret \[\]/);
    expect(out.stdout).toMatch(/\['bin', 'dev', 'etc', 'lib', 'lib64', 'proc', 'sbin', 'tmp', 'usr', 'work'\]/);
    await stillHealthy();
  });

  it('cannot write outside its work directory', async () => {
    const code = [
      'for p in ["/usr/evil", "/etc/evil", "/evil", "/proc/sys/kernel/hostname", "/dev/evil"]:',
      '    try:',
      '        open(p, "w").write("x"); print("WROTE", p)',
      '    except OSError as e:',
      '        print("refused", p)',
      'open("/work/fine.txt", "w").write("ok")',
      'open("/tmp/scratch", "w").write("ok")',
      'open("/etc/evil2", "w")',
    ].join('\n');
    const out = await run(code);
    expect(out.stdout).not.toMatch(/WROTE/);
    expect(out.stdout.match(/refused/g)).toHaveLength(5);
    expect(out.status).toBe('error');
    expect(out.message).toMatch(/系统目录只读/);
    expect(out.artifacts.map((a) => a.name)).toEqual(['fine.txt']);
    expect(fs.existsSync('/evil') || fs.existsSync('/etc/evil') || fs.existsSync('/etc/evil2')).toBe(false);
    await stillHealthy();
  });

  it('cannot create namespaces of its own: no user, PID, network or mount namespace (issue 33)', async () => {
    // A nested user namespace would hand the code every capability inside it (mount, network
    // setup, more kernel surface); bubblewrap's --disable-userns forbids it, and without a user
    // namespace the code has no capability to create the others.
    const code = [
      'import os, subprocess',
      'for flags in ["-U", "-r", "-Ur", "-Urn", "-Urm", "-Urpf", "-p -f", "-n", "-m", "-i", "-u"]:',
      '    r = subprocess.run(["unshare", *flags.split(), "true"], capture_output=True)',
      '    print("unshare", flags, "ok" if r.returncode == 0 else "refused")',
      'r = subprocess.run(["unshare", "-U", "true"], capture_output=True, text=True)',
      'print("why", r.stderr.strip())',
    ].join('\n');
    const out = await run(code);
    expect(out.status, out.stderr).toBe('ok');
    const lines = out.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('unshare '))).toHaveLength(11);
    expect(lines.filter((l) => l.startsWith('unshare ') && l.endsWith(' ok'))).toEqual([]);
    // Refused by the kernel's namespace limit, not because the program is missing.
    expect(out.stdout).toMatch(/^why unshare: unshare failed: (No space left on device|Operation not permitted)$/m);
    await stillHealthy();
  });

  it('cannot spawn 1,000 processes', async () => {
    const code = [
      'import subprocess',
      'procs = []',
      'try:',
      '    for i in range(1000):',
      '        procs.append(subprocess.Popen(["sleep", "20"]))',
      'finally:',
      '    print("started", len(procs))',
    ].join('\n');
    const out = await run(code);
    expect(out.status).toBe('error');
    const started = Number(/started (\d+)/.exec(out.stdout)?.[1]);
    expect(started).toBeLessThan(64);
    expect(out.message).toMatch(/进程或线程数超过上限（64）/);
    await stillHealthy();
  });

  it('survives a fork bomb', async () => {
    const code = ['import os', 'while True:', '    try:', '        os.fork()', '    except OSError:', '        pass'].join('\n');
    const out = await run(code);
    expect(out.status).toBe('timeout');
    expect(out.message).toMatch(/运行超过时间上限（8 秒），程序已被停止/);
    await stillHealthy();
  });

  it('cannot allocate 4 GB', async () => {
    const out = await run('b = bytearray(4 * 1024 ** 3)\nprint(len(b))');
    expect(out.status).toBe('error');
    expect(out.stderr).toMatch(/MemoryError/);
    expect(out.message).toMatch(/内存超过上限（512 MB）/);
    await stillHealthy();
  });

  it('stops an infinite loop at the time limit', async () => {
    const started = Date.now();
    const out = await run('print("spinning", flush=True)\nwhile True:\n    pass');
    expect(out.status).toBe('timeout');
    expect(out.stdout).toBe('spinning\n');
    expect(out.message).toMatch(/运行超过时间上限/);
    expect(Date.now() - started).toBeLessThan(20_000);
    await stillHealthy();
  });

  it('cuts 1 GB of output and stops the writer', async () => {
    const out = await run('import sys\nchunk = "x" * (1 << 20)\nfor _ in range(1024):\n    sys.stdout.write(chunk)');
    expect(['output_limit', 'error']).toContain(out.status);
    expect(out.status).toBe('output_limit');
    expect(out.stdout_truncated).toBe(true);
    expect(out.stdout.length).toBe(1024 * 1024);
    expect(out.message).toMatch(/输出过多/);
    expect(out.message).toMatch(/其余部分已截断/);
    await stillHealthy();
  });

  it('cannot escape through a symlink: links are not followed when files are kept', async () => {
    const code = [
      'import os',
      'os.symlink("/etc/shadow", "shadow.png")',
      `os.symlink(${JSON.stringify(server.dataDir)}, "data")`,
      'os.symlink("/proc/1/root", "root")',
      'for p in ["shadow.png", "data/csai.sqlite", "root/etc/shadow"]:',
      '    try:',
      '        open(p).read(); print("READ", p)',
      '    except OSError as e:',
      '        print("denied", p)',
    ].join('\n');
    const out = await run(code);
    expect(out.status, out.stderr).toBe('ok');
    expect(out.stdout).not.toMatch(/^READ/m);
    expect(out.artifacts).toEqual([]);
    await stillHealthy();
  });

  it('killing its parent ends only the sandbox', async () => {
    const polite = await run('import os, signal\nos.kill(os.getppid(), signal.SIGTERM)\nprint("still here")');
    expect(polite.status).toBe('ok');
    expect(polite.stdout).toBe('still here\n');
    const out = await run('import os, signal\nopen("x.txt", "w").write("x")\nos.kill(os.getppid(), signal.SIGKILL)\nimport time\ntime.sleep(5)');
    expect(out.status).toBe('lost');
    expect(out.message).toMatch(/沙箱没有返回运行结果/);
    expect(out.artifacts).toEqual([]);
    // Nor can it reach pid 1 of its namespace or anything outside it.
    const init = await run('import os, signal\nfor pid in (1, ' + String(process.pid) + '):\n    try:\n        os.kill(pid, signal.SIGKILL); print("sent", pid)\n    except OSError as e:\n        print("refused", pid, e.errno)');
    expect(init.stdout).toMatch(new RegExp(`refused ${process.pid} 3`));
    await stillHealthy();
  });
});

describe('POST /code/run refuses bad input in Chinese', () => {
  it('needs a session, code, and at most 6 readable documents', async () => {
    expect((await server.client().post('/api/v1/code/run', { code: 'print(1)' })).status).toBe(401);
    for (const [body, message] of [
      [{ code: '' }, '请提供要运行的 Python 代码'],
      [{ code: '   ' }, '请提供要运行的 Python 代码'],
      [{}, '请提供要运行的 Python 代码'],
      [{ code: 'x'.repeat(64_001) }, '代码不能超过64000个字符'],
      [{ code: 'print(1)', doc_ids: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }, '一次最多挂载6个文件'],
      [{ code: 'print(1)', extra: 1 }, undefined],
    ] as const) {
      const res = await alice.post('/api/v1/code/run', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      if (message) expect(res.body.message).toContain(message);
      else expect(res.body.message).toMatch(/\p{Script=Han}/u);
    }
    const missing = await alice.post('/api/v1/code/run', { code: 'print(1)', doc_ids: ['no-such-doc'] });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/文件“no-such-doc”不在所附的文档中/);
    const traversal = await alice.get('/api/v1/code/artifacts/..%2F..%2Fetc');
    expect(traversal.status).toBe(400);
    expect(traversal.body.message).toBe('文件不存在');
    expect((await alice.get('/api/v1/code/artifacts/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
  });
});

describe('without bubblewrap', () => {
  it('lists code execution disabled with the reason, on /tools and /diagnostics, and never runs code', async () => {
    const off = await startServer({ CSAI_SANDBOX_BWRAP: '/nonexistent/bwrap' });
    try {
      const { client, email } = await signedInUser(off);
      // How to enable it is for an administrator's eyes.
      makeAdmin(off, email);
      const tools = await client.get<Array<{ tools: Array<{ value: string; enabled: boolean; description: string }> }>>('/api/v1/tools');
      const entry = tools.body.data.flatMap((g) => g.tools).find((t) => t.value === 'code_execution')!;
      expect(entry.enabled).toBe(false);
      expect(entry.description).toMatch(/不可用：未找到 bubblewrap（bwrap），代码不会在沙箱外运行。请安装 bubblewrap/);
      const diag = await client.get<{ tools: Array<{ value: string; enabled: boolean; description: string }> }>('/api/v1/diagnostics');
      expect(diag.body.data.tools.find((t) => t.value === 'code_execution')).toMatchObject({ enabled: false, description: expect.stringMatching(/apt-get install -y bubblewrap/) });
      const res = await client.post('/api/v1/code/run', { code: 'print(1)' });
      expect(res.status).toBe(503);
      expect(res.body.message).toMatch(/bubblewrap/);
    } finally {
      await off.close();
    }
  });
});

describe('artifacts on disk', () => {
  it('a restart removes old files no row names, and keeps every artifact', async () => {
    const own = await startServer();
    let again: TestServer | undefined;
    try {
      const { client } = await signedInUser(own);
      const res = await client.post<CodeExecutionResult>('/api/v1/code/run', { code: 'open("kept.txt", "w").write("kept")' });
      const kept = res.body.data.artifacts[0]!;
      const dir = path.join(own.dataDir, 'artifacts');
      const old = new Date(Date.now() - 2 * 3600_000);
      fs.writeFileSync(path.join(dir, 'orphan-artifact-0001'), 'x');
      fs.writeFileSync(path.join(dir, 'unfinished-0001.part'), 'x');
      fs.writeFileSync(path.join(dir, 'recent-orphan-0001'), 'x');
      for (const name of ['orphan-artifact-0001', 'unfinished-0001.part', kept.id]) fs.utimesSync(path.join(dir, name), old, old);
      await own.close();
      again = await startServer({}, own.dataDir);
      // The sweep runs when the tool is built; its result shows on disk.
      await until(() => fs.readdirSync(dir).length <= 2);
      expect(fs.readdirSync(dir).sort()).toEqual([kept.id, 'recent-orphan-0001'].sort());
      const db = again.sqlite();
      expect(db.prepare('select name from artifacts where id = ?').get(kept.id)).toEqual({ name: 'kept.txt' });
      db.close();
    } finally {
      await (again ?? own).close().catch(() => undefined);
    }
  });
});
