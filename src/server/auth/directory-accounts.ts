import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../db/database';
import { now } from '../db/database';
import type { User } from './accounts';
import { randomToken } from './crypto';
import type { DirectoryPerson } from './directory';

/**
 * The stored password of a directory account: not a hash of anything (verifyPassword accepts only
 * `scrypt$…`), so a directory account never signs in with a local password.
 */
export const DIRECTORY_PASSWORD = '!directory';

/** The department of that name, created when the directory names one the list does not have yet. */
async function departmentNamed(trx: Executor, name: string): Promise<string> {
  const found = await trx.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirst();
  if (found) return found.id;
  const id = randomToken(9);
  await trx.insertInto('departments').values({ id, name, created_at: now() }).execute();
  return id;
}

/** True when another user already has this e-mail address. */
async function emailTaken(trx: Executor, email: string, exceptId: string | null): Promise<boolean> {
  let q = trx.selectFrom('users').select('id').where('email', '=', email);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return !!(await q.executeTakeFirst());
}

/**
 * The local account of a directory person after a successful directory sign-in: created on the
 * first sign-in, brought up to date (name, e-mail, department) on every later one. Accounts are
 * linked by the directory's account attribute only, never by e-mail: a directory that lets people
 * edit their own `mail` must not hand them someone else's local account. An e-mail already used by
 * another account is left out (and logged) instead.
 */
export async function syncDirectoryUser(db: Db, person: DirectoryPerson, log: Pick<FastifyBaseLogger, 'warn'>): Promise<User> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('users').selectAll().where('directory_account', '=', person.account).executeTakeFirst();
    const departmentId = person.department ? await departmentNamed(trx, person.department) : (existing?.department_id ?? null);
    let email = person.email;
    if (email && (await emailTaken(trx, email, existing?.id ?? null))) {
      log.warn({ account: person.account, email }, 'directory e-mail already belongs to another account; not copied');
      email = existing?.email ?? null;
    }
    const name = person.name.slice(0, 50);
    if (existing) {
      await trx
        .updateTable('users')
        .set({ name, email, department_id: departmentId, auth_source: 'ldap' })
        .where('id', '=', existing.id)
        .execute();
      return { ...existing, name, email, department_id: departmentId, auth_source: 'ldap' as const };
    }
    const user: User = {
      id: randomToken(12),
      language: null,
      email,
      phone: null,
      name,
      password_hash: DIRECTORY_PASSWORD,
      department_id: departmentId,
      is_admin: 0,
      // The directory vouches for the person: no activation link.
      status: 'active',
      created_at: now(),
      activated_at: now(),
      auth_source: 'ldap',
      directory_account: person.account,
    };
    await trx.insertInto('users').values(user).execute();
    return user;
  });
}
