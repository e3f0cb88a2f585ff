import type { Executor } from '../db/database';
import { engineOf } from '../db/dialect';
import { postgresFullText } from './fulltext-postgres';
import { sqliteFullText } from './fulltext-sqlite';
import type { FullText } from './fulltext-types';

export type { FullText, Hit, Span } from './fulltext-types';

/** The full-text index of the database's engine. */
export const fullTextOf = (db: Executor): FullText => (engineOf(db) === 'postgres' ? postgresFullText(db) : sqliteFullText(db));
