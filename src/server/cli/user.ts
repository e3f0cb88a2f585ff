/**
 * Account administration without mail: `npm run user -- <command> [options]`.
 *
 *   create --email a@b.com | --phone 13800000000  --name 名字 [--password P] [--admin] [--department 名称]
 *   list
 *   department add <名称>
 *   department list
 *   set-department --account <email|phone> --department <名称>
 *   disable --account <email|phone>      enable --account <email|phone>
 *
 * Accounts made here are active at once. Without --password a strong one is generated and printed.
 */
import { isUniqueViolation } from '../db/dialect';
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../config';
import { openDatabase, now, type Db } from '../db/database';
import { emailAddress, newPassword, personName, phoneNumber } from '../../contract/auth';
import { hashPassword, randomToken } from '../auth/crypto';
import { usersRepo } from '../auth/accounts';
import { sessionsRepo } from '../auth/sessions';

class UsageError extends Error {}

const parse = <T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } } }, value: unknown, what: string): T => {
  const r = schema.safeParse(value);
  if (!r.success) throw new UsageError(`${what}: ${r.error.issues[0]?.message ?? 'invalid'}`);
  return r.data;
};

async function departmentId(db: Db, name: string, create: boolean): Promise<string> {
  const found = await db.selectFrom('departments').select('id').where('name', '=', name).executeTakeFirst();
  if (found) return found.id;
  if (!create) throw new UsageError(`department not found: ${name}`);
  const id = randomToken(9);
  await db.insertInto('departments').values({ id, name, created_at: now() }).execute();
  return id;
}

async function run(argv: string[], db: Db, cost: number): Promise<string> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      phone: { type: 'string' },
      name: { type: 'string' },
      password: { type: 'string' },
      admin: { type: 'boolean', default: false },
      department: { type: 'string' },
      account: { type: 'string' },
    },
  });
  const users = usersRepo(db);
  const [command, sub, arg] = positionals;
  switch (command) {
    case 'create': {
      if (!values.email === !values.phone) throw new UsageError('give exactly one of --email or --phone');
      const email = values.email ? parse(emailAddress, values.email, '--email') : null;
      const phone = values.phone ? parse(phoneNumber, values.phone, '--phone') : null;
      const name = parse(personName, values.name ?? '', '--name');
      const generated = !values.password;
      const password = values.password ?? `${randomBytes(9).toString('base64url')}7a`;
      parse(newPassword, password, '--password');
      const dept = values.department ? await departmentId(db, values.department.trim(), true) : null;
      const existing = await users.byAccount(email ?? phone!);
      if (existing) throw new UsageError(`account already exists: ${email ?? phone}`);
      const password_hash = await hashPassword(password, cost);
      const user = await users
        .create({ email, phone, name, password_hash, department_id: dept, is_admin: values.admin, status: 'active' })
        .catch((err: unknown) => {
          // Another process created the same account between the check above and this insert.
          if (isUniqueViolation(err, 'users', ['email', 'phone'])) throw new UsageError(`account already exists: ${email ?? phone}`);
          throw err;
        });
      return `created ${values.admin ? 'administrator' : 'user'} ${email ?? phone} (id ${user.id})` + (generated ? `\npassword: ${password}` : '');
    }
    case 'list': {
      const rows = await db
        .selectFrom('users')
        .leftJoin('departments', 'departments.id', 'users.department_id')
        .select(['users.id', 'users.email', 'users.phone', 'users.name', 'users.status', 'users.is_admin', 'departments.name as department'])
        .orderBy('users.created_at')
        .execute();
      return rows.map((u) => [u.id, u.email ?? u.phone, u.name, u.status, u.is_admin ? 'admin' : '', u.department ?? ''].join('\t')).join('\n') || '(no users)';
    }
    case 'department': {
      if (sub === 'add') {
        if (!arg?.trim()) throw new UsageError('department add <name>');
        await departmentId(db, arg.trim(), true);
        return `department: ${arg.trim()}`;
      }
      if (sub === 'list') return (await db.selectFrom('departments').select(['id', 'name']).orderBy('name').execute()).map((d) => `${d.id}\t${d.name}`).join('\n') || '(no departments)';
      throw new UsageError('department add <name> | department list');
    }
    case 'set-department':
    case 'disable':
    case 'enable': {
      const user = values.account ? await users.byAccount(values.account) : undefined;
      if (!user) throw new UsageError(`no such account: ${values.account ?? '(give --account)'}`);
      if (command === 'set-department') {
        if (!values.department) throw new UsageError('give --department');
        const id = await departmentId(db, values.department.trim(), true);
        await db.updateTable('users').set({ department_id: id }).where('id', '=', user.id).execute();
        return `${values.account} → ${values.department}`;
      }
      await db.updateTable('users').set({ status: command === 'disable' ? 'disabled' : 'active' }).where('id', '=', user.id).execute();
      if (command === 'disable') await sessionsRepo(db).revokeAllOf(user.id);
      return `${values.account}: ${command}d`;
    }
    default:
      throw new UsageError('commands: create | list | department add|list | set-department | disable | enable');
  }
}

const config = loadConfig();
const db = await openDatabase(config.dataDir, config.DATABASE_URL);
try {
  console.log(await run(process.argv.slice(2), db, config.CSAI_PASSWORD_COST));
} catch (err) {
  if (err instanceof UsageError || (err instanceof Error && 'code' in err && err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) {
    console.error(`error: ${err.message}`);
    process.exitCode = 2;
  } else throw err;
} finally {
  await db.destroy();
}
