import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Ordered migrations. Never edit one that has shipped: add the next.
 * Each runs in its own transaction (Kysely's Migrator), so a crash leaves the schema whole.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('departments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.unique())
        .addColumn('phone', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('department_id', 'text', (c) => c.references('departments.id').onDelete('set null'))
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending','active','disabled')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('activated_at', 'text')
        .addCheckConstraint('users_has_account', sql`email is not null or phone is not null`)
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('id_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('auth_tokens')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('activate','reset')`))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('otp_codes')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('otp_codes_user').on('otp_codes').column('user_id').execute();
      await db.schema
        .createTable('outbox')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('channel', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('alerts')
        .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('is_show', 'integer', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .execute();
    },
  },
};
