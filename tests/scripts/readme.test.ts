import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolGroup } from '../../src/contract/channel';
import { configSchema } from '../../src/server/config';
import { routeTable } from '../../src/server/route-table';
import { startServer, type TestServer } from '../server/helpers';

// README is held to the code. Every tool, environment variable and API route it names
// exists (the tool registry as GET /api/v1/tools lists it, the configuration schema and the
// process.env reads, the route table of a started server), every tool of the registry is in its
// tools table, and a tool is said to be "not built yet" exactly when the registry says so.
const ROOT = path.resolve(__dirname, '../..');
const README = path.join(ROOT, 'README.md');

/** Markdown text without its fenced code blocks, and those blocks. */
function split(markdown: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else (fenced ? code : prose).push(line);
  }
  return { prose: prose.join('\n'), code: code.join('\n') };
}

/** The text of the `## heading` section (up to the next `## `). */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Inline code spans of a text. */
const spans = (text: string) => [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);

/** Files under `dir` (recursively) whose names match, skipping dependencies and build output. */
function files(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return ['node_modules', 'dist', '.git', '.artifacts'].includes(e.name) ? [] : files(p, pattern);
    return pattern.test(e.name) ? [p] : [];
  });
}

const SOURCES = [...['src', 'scripts', 'tests', 'bench', '.ci'].flatMap((d) => files(path.join(ROOT, d), /\.(?:ts|tsx|mjs|js|sh)$|^run$/)), ...files(ROOT, /^(?:vite|vitest|playwright)\.config\.ts$|^web-test-runner\.config\.mjs$/).filter((f) => path.dirname(f) === ROOT)];
const sourceText = SOURCES.map((f) => fs.readFileSync(f, 'utf8')).join('\n');

/** Environment variables the code reads: the configuration schema's keys and every `env.NAME` / `env['NAME']`. */
const envRead = new Set<string>([
  ...Object.keys(configSchema.shape),
  ...[...sourceText.matchAll(/\benv(?:\.|\[['"])([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
  // A shell script's `${NAME:-default}` / `$NAME`.
  ...[...sourceText.matchAll(/\$\{?([A-Z][A-Z0-9]*_[A-Z0-9_]+)/g)].map((m) => m[1]!),
]);
/** Constants the code declares (README also names some: `INDEX_VERSION`, `MOLECULE_INDEX_VERSION`). */
const constants = new Set([...sourceText.matchAll(/\b(?:const|let|var)\s+([A-Z][A-Z0-9_]*)\b/g)].map((m) => m[1]!));

/** `NAME` or `NAME=value` or `NAME_*` at the start of a code span, when NAME looks like an environment variable. */
const ENV_LIKE = /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(_\*)?(?:=|$)/;

function readmeFacts(markdown: string) {
  const { prose, code } = split(markdown);
  const config = section(prose, 'Configuration');
  // Every table row of the Configuration section names one variable in its first cell.
  const configRows = config
    .split('\n')
    .filter((l) => /^\|\s*`[^`]+`\s*\|/.test(l))
    .map((l) => /^\|\s*`([^`]+)`/.exec(l)![1]!);
  // A row whose table has no header renders as plain text: each run of rows must start with `| name | … |` and `|---|`.
  const headerless: string[] = [];
  const lines = prose.split('\n');
  lines.forEach((line, i) => {
    if (!line.startsWith('|')) return;
    const prev = lines[i - 1] ?? '';
    if (!prev.startsWith('|') && !/^\|[\s-|:]+\|$/.test(lines[i + 1] ?? '')) headerless.push(line.slice(0, 80));
  });
  const envNamed = new Set<string>();
  for (const s of spans(prose)) {
    const m = ENV_LIKE.exec(s);
    if (m) envNamed.add(m[1]! + (m[2] ?? ''));
  }
  for (const m of code.matchAll(/(?:^|\s)([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=/gm)) envNamed.add(m[1]!);
  const toolLines = section(prose, 'Tools').split('\n');
  const tools = toolLines.flatMap((l, i) => {
    const m = /^\|[^|]*\|[^|]*\(`([a-z_]+)`\)\s*\|/.exec(l);
    // Not the header row (the one above the |---| line).
    return m && !/^\|[\s-|:]+\|$/.test(toolLines[i + 1] ?? '') ? [{ name: m[1]!, notBuilt: /not built/i.test(l) }] : [];
  });
  // `GET /api/v1/x/{id}`, a bare `/api/v1/x` in code, and the knowledge-base table's `GET all_docs?…` (relative to its prefix).
  const routes: { method?: string; path: string; text: string }[] = [];
  for (const m of prose.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/api\/[^\s`'"|,;)]+)/g)) routes.push({ method: m[1], path: m[2]!, text: m[0] });
  for (const s of spans(prose)) {
    const bare = /^(\/api\/v1\/[^\s?]+)/.exec(s);
    if (bare && !/^(?:GET|POST|PUT|PATCH|DELETE) /.test(s)) routes.push({ path: bare[1]!, text: s });
    const relative = /^(GET|POST|PUT|PATCH|DELETE) ([a-z_][^\s?]*)/.exec(s);
    if (relative) routes.push({ method: relative[1], path: relative[2]!, text: s });
  }
  return { configRows, headerless, envNamed, tools, routes };
}

/** A route pattern as a regular expression: `{id}`, `:id`, `xxx` and `…` stand for one segment. */
const pattern = (url: string) =>
  new RegExp(
    `^${url
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .map((seg) => (/^(?:\{[^}]+\}|:[^/]+|xxx|…|\*)$/.test(seg) ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/')}$`,
  );

let server: TestServer;
let registry: { value: string; notBuilt: boolean }[];
let routes: { method: string; url: string }[];

beforeAll(async () => {
  // With the routes only some settings add (the development outbox README documents).
  server = await startServer({ CSAI_DEV_OUTBOX: '1', CSAI_TRUST_PROXY: '0' });
  const res = await server.client().get<unknown>('/api/v1/tools');
  expect(res.status).toBe(200);
  const groups = toolGroup.array().parse((res.body as { data: unknown }).data);
  registry = groups.flatMap((g) => g.tools.map((t) => ({ value: t.value, notBuilt: t.description.includes('尚未包含此工具的实现') })));
  routes = routeTable(server.app).map((r) => ({ method: r.method, url: r.url.replace(/\/+$/, '') || '/' }));
});
afterAll(async () => {
  await server?.close();
});

/** What README names that the code does not have (empty when README is true). */
function mismatches(markdown: string) {
  const facts = readmeFacts(markdown);
  const problems: string[] = [];
  if (facts.headerless.length) problems.push(...facts.headerless.map((l) => `table rows without a header (rendered as plain text): ${l}`));
  for (const name of facts.configRows) if (!envRead.has(name)) problems.push(`configuration table: ${name} is read nowhere in the code`);
  for (const name of facts.envNamed) {
    if (name.endsWith('_*')) {
      const prefix = name.slice(0, -1);
      if (![...envRead].some((e) => e.startsWith(prefix))) problems.push(`${name}: no environment variable starts with ${prefix}`);
    } else if (!envRead.has(name) && !constants.has(name)) problems.push(`${name}: neither an environment variable the code reads nor a constant it declares`);
  }
  const listed = new Map(facts.tools.map((t) => [t.name, t]));
  for (const t of facts.tools) {
    const entry = registry.find((r) => r.value === t.name);
    if (!entry) problems.push(`tools table: ${t.name} is not in the tool registry`);
    else if (entry.notBuilt !== t.notBuilt) problems.push(`tools table: ${t.name} is ${t.notBuilt ? 'said to be not built, but it is' : 'built according to README, but the registry says it is not'}`);
  }
  for (const r of registry) if (!listed.has(r.value)) problems.push(`tool registry: ${r.value} is missing from README's tools table`);
  for (const r of facts.routes) {
    const candidates = r.path.startsWith('/') ? [r.path] : [`/api/v1/knowledge_base/${r.path}`, `/api/v1/${r.path}`];
    // A path named without a method may be a prefix (`/api/v1/knowledge_base`): some route lies under it.
    const found = candidates.some((c) =>
      routes.some((route) => (r.method ? route.method === r.method && pattern(c).test(route.url) : pattern(c).test(route.url) || route.url.startsWith(`${c.replace(/\/+$/, '')}/`))),
    );
    if (!found) problems.push(`route ${r.text} is not registered`);
  }
  return { facts, problems };
}

describe('README.md', () => {
  const markdown = fs.readFileSync(README, 'utf8');

  it('names only tools, environment variables and routes the code has, and every tool of the registry', () => {
    const { facts, problems } = mismatches(markdown);
    expect(problems).toEqual([]);
    // The check sees what it should: the whole configuration table, every tool once, the routes of the API section.
    expect(facts.configRows.length).toBeGreaterThan(60);
    expect(facts.tools.map((t) => t.name).sort()).toEqual(registry.map((r) => r.value).sort());
    expect(facts.routes.length).toBeGreaterThan(30);
  });

  it('fails on a tool, variable or route it does not have, on a tool it leaves out, and on a table without its header', () => {
    const wrong = markdown
      .replace('| 检索 | 网页抓取 (`page_crawl`) |', '| 检索 | 网页抓取 (`page_fetch`) |')
      .replace('| `PORT` |', '| `CSAI_NO_SUCH_PORT` |')
      .replace('`POST /api/v1/mol/search', '`POST /api/v1/mol/find')
      .replace('`CSAI_DOCKING_*`', '`CSAI_DOCKS_*`')
      .replace(/\n\| name \| default \| meaning \|\n\|---\|---\|---\|\n\| `SEARXNG_URL`/, '\n| `SEARXNG_URL`');
    const { problems } = mismatches(wrong);
    expect(problems).toEqual(
      expect.arrayContaining([
        'tools table: page_fetch is not in the tool registry',
        "tool registry: page_crawl is missing from README's tools table",
        'configuration table: CSAI_NO_SUCH_PORT is read nowhere in the code',
        'route POST /api/v1/mol/find is not registered',
        'CSAI_DOCKS_*: no environment variable starts with CSAI_DOCKS_',
        expect.stringMatching(/^table rows without a header .*SEARXNG_URL/),
      ]),
    );
    // A tool said to be missing although it is built.
    const stale = markdown.replace(/(\| 检索 \| 网页抓取 \(`page_crawl`\) \|[^|]*\|)[^|\n]*\|/, '$1 not built yet: listed disabled |');
    expect(mismatches(stale).problems).toContain('tools table: page_crawl is said to be not built, but it is');
  });
});
