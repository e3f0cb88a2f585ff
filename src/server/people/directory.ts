import { sql } from 'kysely';
import type { Executor } from '../db/database';
import { engineOf, position, type Engine } from '../db/dialect';
import { displayName } from '../../contract/auth';

/** Escapes LIKE wildcards so a keyword matches literally. */
const likePattern = (keyword: string) => `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Masks an e-mail for people search results: the local part keeps its first character. */
const maskEmail = (email: string) => email.replace(/^(.)[^@]*(@.*)$/, '$1***$2');

/** SQL twins of the masks shown in results (SPEC §3 display name for phones, {@link maskEmail} for e-mails). */
const maskedPhoneSql = sql`substr(users.phone, 1, 3) || '****' || substr(users.phone, 8, 4)`;
const maskedEmailSql = (engine: Engine) => sql`lower(substr(users.email, 1, 1) || '***' || substr(users.email, ${position(engine, sql`users.email`, '@')}))`;

/** Departments and people, for sharing dialogs (SPEC §7 Other). */
export function directory(db: Executor) {
  return {
    departments: () =>
      db
        .selectFrom('departments')
        .leftJoin('users', (j) => j.onRef('users.department_id', '=', 'departments.id').on('users.status', '=', 'active'))
        .select(['departments.id', 'departments.name', sql<number>`count(users.id)`.as('member_count')])
        .groupBy('departments.id')
        .orderBy('departments.name')
        .execute(),

    /**
     * Active people whose name, e-mail, phone or department name contains the keyword
     * (case-insensitive for Latin letters), and departments whose name contains it.
     */
    async search(keyword: string, limit = 20) {
      const pattern = likePattern(keyword);
      const people = await db
        .selectFrom('users')
        .leftJoin('departments', 'departments.id', 'users.department_id')
        .select(['users.id', 'users.name', 'users.email', 'users.phone', 'departments.name as department_name'])
        .where('users.status', '=', 'active')
        .where((eb) =>
          eb.or([
            eb(sql`lower(users.name)`, 'like', sql`${pattern} escape '\\'`),
            // Only what the result shows: the masked address, never the full one.
            eb(sql`case when users.phone is not null then ${maskedPhoneSql} else ${maskedEmailSql(engineOf(db))} end`, 'like', sql`${pattern} escape '\\'`),
            eb(sql`lower(departments.name)`, 'like', sql`${pattern} escape '\\'`),
          ]),
        )
        .orderBy('users.name')
        .limit(limit)
        .execute();
      const departments = await db
        .selectFrom('departments')
        .leftJoin('users', (j) => j.onRef('users.department_id', '=', 'departments.id').on('users.status', '=', 'active'))
        .select(['departments.id', 'departments.name', sql<number>`count(users.id)`.as('member_count')])
        .where(sql`lower(departments.name)`, 'like', sql`${pattern} escape '\\'`)
        .groupBy('departments.id')
        .orderBy('departments.name')
        .limit(limit)
        .execute();
      return {
        people: people.map((p) => ({
          id: p.id,
          name: p.name,
          show_name: p.phone ? displayName({ phone: p.phone, email: null }) : maskEmail(p.email ?? ''),
          department_name: p.department_name ?? 'none',
        })),
        departments,
      };
    },
  };
}
