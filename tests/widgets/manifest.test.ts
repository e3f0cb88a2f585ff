import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { elementRegistry } from '../../src/widgets/loader';

// custom-elements.json is the published contract of the elements (STYLE): it must match the code.
const manifestFile = path.resolve('custom-elements.json');
const checker = path.resolve('scripts/custom-elements.mjs');
const check = (file: string) => spawnSync(process.execPath, [checker, '--check', file], { encoding: 'utf8' });

interface ManifestElement { tagName: string; attributes?: { name: string }[] }
const elements = (): ManifestElement[] =>
  JSON.parse(fs.readFileSync(manifestFile, 'utf8')).modules.flatMap((m: { declarations: ManifestElement[] }) => m.declarations);

describe('custom-elements.json', () => {
  it('is what the documentation blocks generate (run `npm run manifest` after changing one)', () => {
    const result = check(manifestFile);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 60_000); // a child process: slow to start on a busy machine

  it('fails the check when the committed file drifts', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-cem-'));
    const stale = path.join(dir, 'custom-elements.json');
    fs.writeFileSync(stale, fs.readFileSync(manifestFile, 'utf8').replace('"csai-status"', '"csai-old-name"'));
    const result = check(stale);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('out of date');
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('lists every element of the loader, with exactly the attributes each observes', () => {
    const documented = elements();
    expect(documented.map((e) => e.tagName).sort()).toEqual(Object.keys(elementRegistry).sort());
    for (const element of documented) {
      const ctor = customElements.get(element.tagName) as (CustomElementConstructor & { observedAttributes?: string[] }) | undefined;
      expect(ctor, element.tagName).toBeDefined();
      expect((element.attributes ?? []).map((a) => a.name).sort(), element.tagName).toEqual([...(ctor?.observedAttributes ?? [])].sort());
    }
  });
});
