import fs from 'node:fs';
import { createHash } from 'node:crypto';
import type { LogEvent } from 'kysely';

/**
 * Which SQL statements a test file makes the server send (scripts/postgres-files.mjs chooses the
 * files that run again on PostgreSQL so that together they send every statement the whole suite
 * sends there). Off unless the variable CSAI_SQL_TRACE names a file (tests/server/file-setup.ts
 * sets it per test file; server processes a test starts inherit it): then each statement's shape
 * (the SQL with its placeholders and value lists collapsed, and how it ended: ok or the
 * SQLSTATE of its error) is appended there once per process, as a short hash.
 */
export const SQL_TRACE_ENV = 'CSAI_SQL_TRACE';

const written = new Set<string>();

/** The same term repeated, joined by a comma, `||`, `or` or `and`: `f(?…) || f(?…)`, `(?…), (?…)`. */
const REPEATED = /((?:\b\w+)?\([^()]*\))(?:\s*(?:,|\|\||\bor\b|\band\b)\s*\1)+/g;

/**
 * A statement's shape: the same query with other values (parameters or numbers written into it),
 * or more of them in a list, more rows, or more of the same term (a question's words), is the
 * same statement.
 */
export function statementShape(text: string): string {
  let shape = text
    .replace(/\$\d+/g, '?')
    .replace(/\s+/g, ' ')
    .replace(/\?(?:, \?)*/g, '?…')
    .replace(/\b\d+(?:\.\d+)?\b/g, 'N');
  for (let before = ''; before !== shape; ) [before, shape] = [shape, shape.replace(REPEATED, '$1')];
  return shape.trim();
}

/** Notes a statement (and how it ended) in the current trace file, if tracing is on. */
export function traceStatement(text: string, errorCode?: string) {
  const file = process.env[SQL_TRACE_ENV];
  if (!file) return;
  const shape = statementShape(text) + (errorCode ? ` !${errorCode}` : '');
  const key = `${file}\0${shape}`;
  if (written.has(key)) return;
  written.add(key);
  const hash = createHash('sha1').update(shape).digest('hex').slice(0, 10);
  try {
    fs.appendFileSync(file, `${hash}\t${shape.slice(0, 300)}\n`);
  } catch {
    // A trace is a test aid: a folder removed under it must not fail a query.
  }
}

/** Set for a whole traced run (its per-file trace files go there): databases opened then log their statements. */
export const SQL_TRACE_DIR_ENV = 'CSAI_SQL_TRACE_DIR';

const logStatement = (event: LogEvent) => {
  const error = event.level === 'error' ? (event.error as { code?: unknown } | undefined) : undefined;
  traceStatement(event.query.sql, event.level === 'error' ? String(error?.code ?? 'error') : undefined);
};

/** Kysely's `log` option for a database opened now: none unless this is a traced run. */
export const sqlTraceLog = () => (process.env[SQL_TRACE_ENV] || process.env[SQL_TRACE_DIR_ENV] ? logStatement : undefined);
