import { PostgresAdapter, sql, type Kysely, type QueryExecutorProvider, type RawBuilder } from 'kysely';

/**
 * The SQL that differs between SQLite and PostgreSQL, in one place. Everything else
 * is written once with Kysely; full-text search has its own pair of modules (retrieval/fulltext-*).
 */
export type Engine = 'sqlite' | 'postgres';

// Any Kysely instance or transaction: migrations see Kysely<unknown>, repositories Kysely<Database>.
interface HasExecutor {
  getExecutor(): { adapter: unknown };
}

/** Which engine a database handle (or transaction) talks to. */
export function engineOf(db: HasExecutor | Kysely<unknown>): Engine {
  return (db as HasExecutor).getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** The text of a top-level field of a JSON text column (`payload`, `request`). */
export function jsonText(engine: Engine, column: string, key: string): RawBuilder<unknown> {
  return engine === 'postgres' ? sql`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)})` : sql`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/** Whether a top-level field of a JSON text column is true (or 1). */
export function jsonTrue(engine: Engine, column: string, key: string): RawBuilder<boolean> {
  return engine === 'postgres'
    ? sql`(${sql.ref(column)}::jsonb ->> ${sql.lit(key)}) in ('true', '1')`
    : sql`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)}) = 1`;
}

/** A JSON array text with `item` (a string) appended. */
export function jsonAppend(engine: Engine, array: RawBuilder<string>, item: string): RawBuilder<string> {
  return engine === 'postgres' ? sql`(${array}::jsonb || jsonb_build_array(${item}::text))::text` : sql`json_insert(${array}, '$[#]', ${item})`;
}

/** The larger of two values (SQLite's scalar max, PostgreSQL's greatest). */
export function larger<T>(engine: Engine, a: RawBuilder<T>, b: RawBuilder<T>): RawBuilder<T> {
  return engine === 'postgres' ? sql`greatest(${a}, ${b})` : sql`max(${a}, ${b})`;
}

/** The 1-based position of `needle` in a text (0 when absent). */
export function position(engine: Engine, text: RawBuilder<string>, needle: string): RawBuilder<number> {
  return engine === 'postgres' ? sql`strpos(${text}, ${needle})` : sql`instr(${text}, ${needle})`;
}

/** An integer list as one bound parameter, for `id in (…)` with many ids (a JSON array on SQLite, an int[] on PostgreSQL). */
export function intList(engine: Engine, ids: readonly number[]): RawBuilder<number> {
  return engine === 'postgres' ? sql`select unnest(${[...ids]}::bigint[])` : sql`select value from json_each(${JSON.stringify(ids)})`;
}

/** A text list as one bound parameter, for `x in (…)` with many values. */
export function textList(engine: Engine, values: readonly string[]): RawBuilder<string> {
  return engine === 'postgres' ? sql`select unnest(${[...values]}::text[])` : sql`select value from json_each(${JSON.stringify(values)})`;
}

/**
 * Whether an error is a unique-key violation on one of the columns of a table (SQLite says
 * "UNIQUE constraint failed: users.email"; PostgreSQL code 23505 names the constraint users_email_key).
 */
export function isUniqueViolation(err: unknown, table: string, columns: readonly string[]): boolean {
  if (!(err instanceof Error)) return false;
  if ('code' in err && err.code === '23505' && 'constraint' in err && typeof err.constraint === 'string') {
    return columns.some((c) => err.constraint === `${table}_${c}_key`);
  }
  return columns.some((c) => err.message.includes(`UNIQUE constraint failed: ${table}.${c}`));
}

/** Whether an error is any unique-key violation (SQLite's "UNIQUE constraint failed", PostgreSQL's 23505). */
export const isAnyUniqueViolation = (err: unknown): boolean =>
  err instanceof Error && (('code' in err && err.code === '23505') || err.message.includes('UNIQUE constraint failed'));

/** The number in a top-level field of a JSON text column (null when it holds no number). */
export function jsonNumber(engine: Engine, column: string, key: string): RawBuilder<number | null> {
  return engine === 'postgres'
    ? sql`(case when jsonb_typeof(${sql.ref(column)}::jsonb -> ${sql.lit(key)}) = 'number' then (${sql.ref(column)}::jsonb ->> ${sql.lit(key)})::numeric end)`
    : sql`json_extract(${sql.ref(column)}, ${sql.lit(`$.${key}`)})`;
}

/**
 * Inside a transaction: waits until no other transaction holds the lock on (`scope`, `key`), and
 * holds it until this one ends — a check and the write it allows then see each other across nodes
 * (PostgreSQL's transaction-scoped advisory lock; keys are hashed, so a collision only serialises
 * more). SQLite needs none: its transactions already run one at a time on the one connection.
 */
export async function lockForTransaction(tx: QueryExecutorProvider, scope: string, key: string): Promise<void> {
  if (engineOf(tx) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext(${scope}), hashtext(${key}))`.execute(tx);
}
