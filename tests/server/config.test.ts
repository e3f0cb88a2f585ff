import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../src/server/config';

describe('configuration', () => {
  it('documents every variable in the README table, and nothing that does not exist', () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    const table = readme.slice(readme.indexOf('## Configuration'));
    const documented = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));
    const known = new Set(Object.keys(configSchema.shape));
    expect([...known].filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !known.has(k!))).toEqual([]);
  });

  it('has working defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.HOST).toBe('127.0.0.1');
    expect(c.CSAI_DEV_OUTBOX).toBe(false);
    expect(c.dataDir.endsWith('/data')).toBe(true);
  });

  it('names every bad variable in one readable error', () => {
    expect(() => loadConfig({ PORT: 'eighty', CSAI_LOG_LEVEL: 'loud', SMTP_URL: 'not a url' })).toThrowError(
      /PORT[\s\S]*CSAI_LOG_LEVEL[\s\S]*SMTP_URL/,
    );
  });

  it('takes a deep-research budget in minutes, 0 to 120', () => {
    expect(loadConfig({}).CSAI_DEEP_RESEARCH_MINUTES).toBe(15);
    expect(loadConfig({ CSAI_DEEP_RESEARCH_MINUTES: '2.5' }).CSAI_DEEP_RESEARCH_MINUTES).toBe(2.5);
    for (const bad of ['-1', '121', 'soon']) expect(() => loadConfig({ CSAI_DEEP_RESEARCH_MINUTES: bad })).toThrowError(/CSAI_DEEP_RESEARCH_MINUTES/);
  });

  it('takes a docking search budget (Vina --max_evals per Monte Carlo run), 0 for Vina\'s own heuristic', () => {
    expect(loadConfig({}).CSAI_DOCKING_MAX_EVALS).toBe(500_000);
    expect(loadConfig({ CSAI_DOCKING_MAX_EVALS: '0' }).CSAI_DOCKING_MAX_EVALS).toBe(0);
    for (const bad of ['-1', '2.5', 'lots']) expect(() => loadConfig({ CSAI_DOCKING_MAX_EVALS: bad })).toThrowError(/CSAI_DOCKING_MAX_EVALS/);
  });

  it('reads flags as 1/true and 0/false, and rejects anything else', () => {
    expect(loadConfig({ CSAI_DEV_OUTBOX: '1' }).CSAI_DEV_OUTBOX).toBe(true);
    expect(loadConfig({ CSAI_DEV_OUTBOX: 'false' }).CSAI_DEV_OUTBOX).toBe(false);
    expect(() => loadConfig({ CSAI_DEV_OUTBOX: 'yes please' })).toThrowError(/CSAI_DEV_OUTBOX/);
  });

  it('treats empty optional values as unset', () => {
    const c = loadConfig({ LLM_BASE_URL: '', SMTP_URL: '  ' });
    expect(c.LLM_BASE_URL).toBeUndefined();
    expect(c.SMTP_URL).toBeUndefined();
  });
});
