import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The import graph is contract ← core ← widgets ← host and contract ← server,
// with no cycle between the folders of src/server. Imports are read from the sources as written
// (static, `export … from`, dynamic import()), so a type-only import counts like any other.

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const src = path.join(repo, 'src');
const server = path.join(src, 'server');

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(p));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The relative imports of a file, as absolute paths (without extension resolution). */
function relativeImports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1]!).filter((s) => s.startsWith('.')).map((s) => path.resolve(path.dirname(file), s));
}

const rel = (p: string) => path.relative(repo, p).split(path.sep).join('/');

/** The folder of src/server a path belongs to, or undefined for root files (config.ts, app.ts, …) and paths outside. */
function serverFolder(p: string): string | undefined {
  const r = path.relative(server, p);
  if (r.startsWith('..') || path.isAbsolute(r)) return undefined;
  const first = r.split(path.sep)[0]!;
  const dir = path.join(server, first);
  return fs.existsSync(dir) && fs.statSync(dir).isDirectory() ? first : undefined;
}

/** Folder → folder → the files that make the edge. */
function serverFolderGraph() {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(server)) {
    const from = serverFolder(file);
    if (!from) continue;
    for (const target of relativeImports(file)) {
      const to = serverFolder(target);
      if (!to || to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), rel(file)]);
    }
  }
  return graph;
}

/** Strongly connected components with more than one folder (Tarjan). */
function cycles(graph: Map<string, Map<string, string[]>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** An import as the file it names: `x` → `x.ts`, `x.tsx`, `x/index.ts`; undefined when none exists (a data file). */
function resolveSource(target: string): string | undefined {
  const candidates = [target, ...['.ts', '.tsx', '.mts'].map((e) => target + e), ...['index.ts', 'index.tsx'].map((f) => path.join(target, f))];
  return candidates.find((c) => SOURCE.test(c) && fs.existsSync(c) && fs.statSync(c).isFile());
}

/** File → file → the file itself (for `cycles`): every relative import between the files of src/server. */
function serverFileGraph() {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(server)) {
    const edges = new Map<string, string[]>();
    for (const target of relativeImports(file)) {
      const to = resolveSource(target);
      if (to && to !== file && to.startsWith(server + path.sep)) edges.set(rel(to), [rel(file)]);
    }
    graph.set(rel(file), edges);
  }
  return graph;
}

/** What each area of src may import (besides itself): contract ← core ← widgets ← host, contract ← server. */
const ALLOWED: Record<string, readonly string[]> = {
  contract: [],
  core: ['contract'],
  widgets: ['contract', 'core'],
  host: ['contract', 'core', 'widgets'],
  server: ['contract'],
};

const areaOf = (p: string) => {
  const r = path.relative(src, p);
  if (r.startsWith('..') || path.isAbsolute(r)) return undefined;
  return r.split(path.sep)[0];
};

describe('import graph', () => {
  it('has no cycle between the folders of src/server', () => {
    const graph = serverFolderGraph();
    const explained = cycles(graph).map((component) => ({
      cycle: component.join(' ↔ '),
      edges: component.flatMap((a) =>
        component.filter((b) => graph.get(a)?.has(b)).map((b) => `${a} → ${b}: ${[...new Set(graph.get(a)!.get(b))].join(', ')}`),
      ),
    }));
    expect(explained, JSON.stringify(explained, null, 1)).toEqual([]);
  });

  it('has no cycle between the files of src/server (shared types live in leaf files)', () => {
    expect(cycles(serverFileGraph())).toEqual([]);
  });

  it('is read from the sources (the graph is not empty)', () => {
    const graph = serverFolderGraph();
    expect(graph.get('answering')?.has('tools')).toBe(true);
    expect(graph.get('routes')?.has('knowledge')).toBe(true);
    expect(serverFileGraph().get('src/server/chem/molecule-ops.ts')?.has('src/server/chem/service.ts')).toBe(true);
  });

  it('imports only along contract ← core ← widgets ← host and contract ← server', () => {
    const against: string[] = [];
    for (const [area, allowed] of Object.entries(ALLOWED)) {
      for (const file of sourceFiles(path.join(src, area))) {
        for (const target of relativeImports(file)) {
          const to = areaOf(target);
          if (to === undefined || to === area || allowed.includes(to)) continue;
          against.push(`${rel(file)} → src/${to} (${rel(target)})`);
        }
      }
    }
    expect(against).toEqual([]);
  });
});
