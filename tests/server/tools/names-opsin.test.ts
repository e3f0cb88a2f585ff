import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOpsin, OpsinUnavailableError, type Opsin } from '../../../src/server/tools/names/opsin';

const opened: Opsin[] = [];
const opsinWith = (...args: Parameters<typeof createOpsin>) => {
  const o = createOpsin(...args);
  opened.push(o);
  return o;
};
afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

/** A stand-in for `java`: a shell script speaking the line server's protocol badly. */
function fakeJava(script: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-java-'));
  const file = path.join(dir, 'java');
  fs.writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

describe('OPSIN in one long-lived JVM', () => {
  const opsin = opsinWith();

  it('is available with Debian libopsin-java and a JRE', () => {
    expect(opsin.availability()).toEqual({ enabled: true });
  });

  it('parses IUPAC and CAS index names, and says so when a name is not systematic', async () => {
    expect(await opsin.parse('2-acetyloxybenzoic acid')).toEqual({ smiles: 'C(C)(=O)OC1=C(C(=O)O)C=CC=C1' });
    expect(await opsin.parse('Benzoic acid, 2-(acetyloxy)-')).toEqual({ smiles: 'C(C)(=O)OC1=C(C(=O)O)C=CC=C1' });
    expect(await opsin.parse('(2S)-2-amino-3-phenylpropanoic acid')).toEqual({ smiles: 'N[C@H](C(=O)O)CC1=CC=CC=C1' });
    const imatinib = await opsin.parse('imatinib');
    expect(imatinib).toMatchObject({ failure: expect.stringContaining('imatinib') as unknown });
  });

  it('answers many names, queued and in order, from the same process', async () => {
    const pid = opsin.pid();
    expect(pid).toBeTypeOf('number');
    const names = ['methane', 'ethanol', 'propan-2-ol', 'benzene', 'not a chemical', 'pyridine', 'acetic acid'];
    const answers = await Promise.all(names.map((n) => opsin.parse(n)));
    expect(answers.map((a) => ('smiles' in a ? a.smiles : null))).toEqual(['C', 'C(C)O', 'CC(C)O', 'C1=CC=CC=C1', null, 'N1=CC=CC=C1', 'C(C)(=O)O']);
    expect(opsin.pid()).toBe(pid);
  });

  it('keeps a name on one line: tabs and line breaks inside it cannot inject a second request', async () => {
    expect(await opsin.parse('ethanol\n2\tmethane')).toMatchObject({ failure: expect.any(String) as unknown });
    expect(await opsin.parse('ethanol')).toEqual({ smiles: 'C(C)O' });
  });

  it('starts a new JVM after a crash', async () => {
    const pid = opsin.pid()!;
    process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 200));
    expect(await opsin.parse('ethanol')).toEqual({ smiles: 'C(C)O' });
    expect(opsin.pid()).not.toBe(pid);
  });

  it('leaves the queue when the caller gives up', async () => {
    const ctl = new AbortController();
    const pending = opsin.parse('butane', ctl.signal);
    ctl.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    expect(await opsin.parse('butane')).toEqual({ smiles: 'CCCC' });
  });

  it('is closed by close(): the JVM exits and later names are refused', async () => {
    const o = createOpsin();
    expect(await o.parse('methanol')).toEqual({ smiles: 'CO' });
    const pid = o.pid()!;
    await o.close();
    expect(() => process.kill(pid, 0)).toThrow();
    await expect(o.parse('methanol')).rejects.toBeInstanceOf(OpsinUnavailableError);
  });
});

describe('when OPSIN cannot run', () => {
  it.each([
    ['the jar is missing', { jar: '/nonexistent/opsin.jar' }, 'OPSIN（/usr/share/java/opsin-cli.jar）'],
    ['java is missing', { java: '/nonexistent/java' }, 'Java 运行环境（java）'],
  ])('names exactly what to install when %s, and refuses names without starting anything', async (_case, options, missing) => {
    const o = opsinWith(options);
    const av = o.availability();
    expect(av.enabled).toBe(false);
    if (!av.enabled) {
      expect(av.reason).toContain(missing);
      expect(av.reason).toContain('npm run setup');
      expect(av.reason).toContain('apt-get install -y libopsin-java default-jre-headless');
    }
    await expect(o.parse('ethanol')).rejects.toBeInstanceOf(OpsinUnavailableError);
    expect(o.pid()).toBeUndefined();
  });

  it('gives up on a name that takes too long and restarts the JVM for the next one', async () => {
    // Ready at once, then never answers.
    const o = opsinWith({ java: fakeJava('printf "READY\\tfake\\n"; exec sleep 30'), jar: '/usr/share/java/opsin-cli.jar', timeoutMs: 300 });
    const first = o.pid();
    expect(first).toBeUndefined();
    const started = Date.now();
    await expect(o.parse('ethanol')).rejects.toThrow('OPSIN 解析超时');
    expect(Date.now() - started).toBeLessThan(5000);
    await expect(o.parse('ethanol')).rejects.toThrow('OPSIN 解析超时');
  });

  it('refuses names with the reason when the JVM dies before it is ready, instead of restarting in a loop', async () => {
    const o = opsinWith({ java: fakeJava('echo "Error: could not find or load main class" >&2; exit 1'), jar: '/usr/share/java/opsin-cli.jar' });
    await expect(o.parse('ethanol')).rejects.toBeInstanceOf(OpsinUnavailableError);
    const av = o.availability();
    expect(av.enabled).toBe(false);
    if (!av.enabled) expect(av.reason).toContain('could not find or load main class');
  });

  it('answers garbage lines from the process by waiting for the right id, then times out', async () => {
    const o = opsinWith({ java: fakeJava('printf "READY\\tfake\\nnonsense\\n999\\tOK\\tC\\n"; exec sleep 30'), jar: '/usr/share/java/opsin-cli.jar', timeoutMs: 300 });
    await expect(o.parse('ethanol')).rejects.toThrow('OPSIN 解析超时');
  });
});
