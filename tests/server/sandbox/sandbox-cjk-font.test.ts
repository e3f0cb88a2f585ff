import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CodeExecutionResult } from '../../../src/contract/code';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';

// Plots from code execution draw Chinese labels with a CJK font from Debian
// (fonts-wqy-microhei, scripts/setup.mjs), not as empty boxes. A missing glyph is drawn as the
// same box whatever the character, so two different characters must give two different pictures,
// each unlike the box DejaVu Sans alone draws for it.
let server: TestServer;
let alice: Client;

beforeAll(async () => {
  server = await startServer();
  ({ client: alice } = await signedInUser(server));
});
afterAll(async () => server?.close(), 60_000);

const CODE = `
import matplotlib.pyplot as plt
def draw(name, text, **font):
    fig = plt.figure(figsize=(1, 1), dpi=60)
    fig.text(0.1, 0.2, text, fontsize=40, **font)
    fig.savefig(name)
    plt.close(fig)
draw('fen.png', '分')
draw('bu.png', '布')
import warnings
with warnings.catch_warnings():
    warnings.simplefilter('ignore')  # the box drawn on purpose, for comparison
    draw('fen-dejavu.png', '分', fontfamily='DejaVu Sans')
fig, ax = plt.subplots()
ax.set_title('分子量分布')
ax.plot([1, 2, 3])
fig.savefig('plot.png')
print('ok')
`;

/** Dark pixels of each PNG and whether two are the same picture (decoded by matplotlib on the host). */
function inspect(files: Record<string, Buffer>): { ink: Record<string, number>; same: (a: string, b: string) => boolean } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-font-'));
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), data);
  const script = `
import json, sys, os
import matplotlib.image as mpimg
d = sys.argv[1]
out = {}
for n in sorted(os.listdir(d)):
    img = mpimg.imread(os.path.join(d, n))[:, :, :3]
    out[n] = {'ink': int((img.mean(axis=2) < 0.5).sum()), 'hash': hash(img.tobytes())}
print(json.dumps(out))`;
  const out = JSON.parse(execFileSync('/usr/bin/python3', ['-c', script, dir], { encoding: 'utf8' })) as Record<string, { ink: number; hash: number }>;
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    ink: Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.ink])),
    same: (a, b) => out[a]!.hash === out[b]!.hash,
  };
}

describe('a plot with a Chinese label', () => {
  it('draws the glyphs, not empty boxes', { timeout: 120_000 }, async () => {
    const run = await alice.post<CodeExecutionResult>('/api/v1/code/run', { code: CODE });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body.data.stdout).toBe('ok\n');
    // No "findfont" warnings: only fonts that are installed are named.
    expect(run.body.data.stderr).not.toMatch(/findfont|Glyph .* missing/);
    const files: Record<string, Buffer> = {};
    for (const a of run.body.data.artifacts) {
      const cookie = [...alice.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
      const res = await fetch(`${server.url}/api/v1/code/artifacts/${a.id}`, { headers: { cookie } });
      expect(res.status).toBe(200);
      files[a.name] = Buffer.from(await res.arrayBuffer());
    }
    expect(Object.keys(files).sort()).toEqual(['bu.png', 'fen-dejavu.png', 'fen.png', 'plot.png']);
    const { ink, same } = inspect(files);
    expect(ink['fen.png']).toBeGreaterThan(20);
    expect(ink['bu.png']).toBeGreaterThan(20);
    // DejaVu Sans alone has no 分: its box is what a missing font draws; ours differs, and 分 ≠ 布.
    expect(same('fen.png', 'fen-dejavu.png')).toBe(false);
    expect(same('fen.png', 'bu.png')).toBe(false);
  });
});
