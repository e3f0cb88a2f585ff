import { maskSecret, type McpAuthInput } from '../../../contract/mcp-servers';
import { secretBox } from './secret-box';
import { NO_AUTH, type StoredAuth } from './store';
import type { SpecAuth } from './spec';

export const UNREADABLE_AUTH = '无法解密保存的认证信息（服务器密钥 CSAI_SECRET 或 data/secret.key 已更换），请在 MCP 服务器管理页重新设置该服务器的认证';

/** An administrator's authentication as it is sent. */
export const authOf = (auth: McpAuthInput): SpecAuth =>
  auth.type === 'bearer'
    ? { type: 'bearer', header: 'Authorization', hint: maskSecret(auth.token), value: `Bearer ${auth.token}` }
    : { type: 'header', header: auth.name, hint: maskSecret(auth.value), value: auth.value };

/** The stored form of the servers' authentication: the secret sealed under a key derived from the server secret. */
export function storedAuth(secret: Buffer) {
  const box = secretBox(secret);
  return {
    /** A stored row's authentication, its secret opened (undefined value when it cannot be). */
    open(row: StoredAuth): SpecAuth | undefined {
      if (!row.auth_type || !row.auth_header || !row.auth_secret) return undefined;
      let secretValue: string | undefined;
      try {
        secretValue = box.open(row.auth_secret);
      } catch {
        return { type: row.auth_type, header: row.auth_header, hint: '••••', value: undefined };
      }
      return { type: row.auth_type, header: row.auth_header, hint: maskSecret(secretValue), value: row.auth_type === 'bearer' ? `Bearer ${secretValue}` : secretValue };
    },
    /** What is stored of an administrator's authentication: the secret sealed. */
    seal(auth: McpAuthInput | undefined | null): StoredAuth {
      if (!auth) return NO_AUTH;
      return auth.type === 'bearer'
        ? { auth_type: 'bearer', auth_header: 'Authorization', auth_secret: box.seal(auth.token) }
        : { auth_type: 'header', auth_header: auth.name, auth_secret: box.seal(auth.value) };
    },
  };
}
