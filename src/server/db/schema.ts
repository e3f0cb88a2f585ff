import type { Generated } from 'kysely';

export interface DepartmentTable {
  id: string;
  name: string;
  created_at: string;
}

export interface UserTable {
  id: string;
  email: string | null;
  phone: string | null;
  name: string;
  password_hash: string;
  department_id: string | null;
  is_admin: number;
  status: 'pending' | 'active' | 'disabled';
  created_at: string;
  activated_at: string | null;
}

export interface SessionTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  user_agent: string | null;
}

export interface AuthTokenTable {
  token_hash: string;
  user_id: string;
  purpose: 'activate' | 'reset';
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface OtpCodeTable {
  id: Generated<number>;
  user_id: string;
  code_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  attempts: number;
}

export interface OutboxTable {
  id: Generated<number>;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  body: string;
  kind: string;
  status: 'pending' | 'sent' | 'logged' | 'failed';
  created_at: string;
}

export interface AlertTable {
  id: Generated<number>;
  is_show: number;
  content: string;
  content_type: 'info' | 'warning' | 'error' | 'success';
  updated_at: string;
  updated_by: string | null;
}

/** The whole database as Kysely sees it. */
export interface Database {
  departments: DepartmentTable;
  users: UserTable;
  sessions: SessionTable;
  auth_tokens: AuthTokenTable;
  otp_codes: OtpCodeTable;
  outbox: OutboxTable;
  alerts: AlertTable;
}
