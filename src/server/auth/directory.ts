import fs from 'node:fs';
import net, { type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { Config } from '../config';
import { settleWithin } from '../settle-within';

/** A person as the directory describes them, read with the LDAP_ATTR_* mapping. */
export interface DirectoryPerson {
  /** The LDAP_ATTR_ACCOUNT value: the stable key the local account is linked by. */
  account: string;
  dn: string;
  name: string;
  email: string | null;
  department: string | null;
}

/**
 * What a directory sign-in came to. `not_found` (no entry, or several) lets local accounts sign in;
 * `unavailable` is a directory that is down, slow, or refuses the service account.
 */
export type DirectoryResult =
  | { kind: 'ok'; person: DirectoryPerson }
  | { kind: 'wrong_password' }
  | { kind: 'not_found' }
  | { kind: 'unavailable'; detail: string };

/** Directory (LDAP) sign-in: search for the typed account, then bind as the entry found with the typed password. */
export interface Directory {
  authenticate(account: string, password: string): Promise<DirectoryResult>;
}

export type DirectoryConfig = Pick<
  Config,
  | 'LDAP_URL'
  | 'LDAP_BIND_DN'
  | 'LDAP_BIND_PASSWORD'
  | 'LDAP_USER_BASE'
  | 'LDAP_USER_FILTER'
  | 'LDAP_ATTR_ACCOUNT'
  | 'LDAP_ATTR_NAME'
  | 'LDAP_ATTR_EMAIL'
  | 'LDAP_ATTR_DEPARTMENT'
  | 'LDAP_STARTTLS'
  | 'LDAP_TLS_CA'
  | 'LDAP_TIMEOUT_MS'
>;

/**
 * Escapes a value for an LDAP search filter (RFC 4515 §3): `*`, `(`, `)`, `\` and NUL become
 * `\2a`, `\28`, `\29`, `\5c`, `\00`, so typed text can only ever be a literal value.
 * Other characters, Chinese included, stay as UTF-8, which RFC 4515 allows unescaped.
 * @example escapeFilterValue('*)(uid=*') // '\2a\29\28uid=\2a'
 */
export function escapeFilterValue(value: string): string {
  return value.replace(/[*()\\\u0000]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The search filter for a typed account: every `{account}` in the template replaced by the escaped value. */
export const userFilter = (template: string, account: string) => template.split('{account}').join(escapeFilterValue(account));

class DirectoryTimeout extends Error {}

function track<S extends Socket>(sockets: Socket[], socket: S): S {
  sockets.push(socket);
  return socket;
}

/** The first value of an attribute as text, matching the name case-insensitively (LDAP attribute names are). */
function attribute(entry: Entry, name: string): string | null {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  if (!key) return null;
  const raw = entry[key];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (first === undefined) return null;
  const text = (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim();
  return text === '' ? null : text;
}

/** The TLS settings for LDAPS and StartTLS: the system CAs, or the one CA file configured. */
function tlsOptions(config: DirectoryConfig): ConnectionOptions {
  if (!config.LDAP_TLS_CA) return {};
  try {
    return { ca: fs.readFileSync(config.LDAP_TLS_CA) };
  } catch (err) {
    throw new Error(`LDAP_TLS_CA: cannot read ${config.LDAP_TLS_CA} (${err instanceof Error ? err.message : String(err)})`);
  }
}

/** The directory of LDAP_URL, or null when directory sign-in is not configured. Throws at start-up on an unreadable CA file. */
export function createDirectory(config: DirectoryConfig): Directory | null {
  const url = config.LDAP_URL;
  const base = config.LDAP_USER_BASE;
  if (!url || !base) return null;
  const tls = tlsOptions(config);
  const timeout = config.LDAP_TIMEOUT_MS;
  const attributes = [config.LDAP_ATTR_ACCOUNT, config.LDAP_ATTR_NAME, config.LDAP_ATTR_EMAIL, config.LDAP_ATTR_DEPARTMENT];

  async function run(client: Client, account: string, password: string): Promise<DirectoryResult> {
    // A fresh options object each time (ldapts writes the socket into it); the host is what the certificate must name.
    if (config.LDAP_STARTTLS) await client.startTLS({ ...tls, host: new URL(url!).hostname });
    if (config.LDAP_BIND_DN) await client.bind(config.LDAP_BIND_DN, config.LDAP_BIND_PASSWORD ?? '');
    const { searchEntries } = await client.search(base!, {
      scope: 'sub',
      filter: userFilter(config.LDAP_USER_FILTER, account),
      attributes,
      sizeLimit: 2,
      timeLimit: Math.max(1, Math.ceil(timeout / 1000)),
    });
    // Several entries for one typed account is a filter that is too loose: nobody signs in as a guess.
    if (searchEntries.length !== 1) return { kind: 'not_found' };
    const entry = searchEntries[0]!;
    const key = attribute(entry, config.LDAP_ATTR_ACCOUNT);
    if (!key) return { kind: 'unavailable', detail: `entry ${entry.dn} has no ${config.LDAP_ATTR_ACCOUNT}` };
    try {
      await client.bind(entry.dn, password);
    } catch (err) {
      if (err instanceof InvalidCredentialsError) return { kind: 'wrong_password' };
      throw err;
    }
    return {
      kind: 'ok',
      person: {
        account: key,
        dn: entry.dn,
        name: attribute(entry, config.LDAP_ATTR_NAME) ?? key,
        email: attribute(entry, config.LDAP_ATTR_EMAIL)?.toLowerCase() ?? null,
        department: attribute(entry, config.LDAP_ATTR_DEPARTMENT),
      },
    };
  }

  return {
    async authenticate(account, password) {
      // RFC 4513 §5.1.2: a bind with a DN and an empty password is an unauthenticated bind that
      // many servers answer with success. It never signs anyone in.
      if (password === '') return { kind: 'wrong_password' };
      // The sockets the client opens, so that none outlives this sign-in even if the server never answers.
      const sockets: Socket[] = [];
      const client = new Client({
        url,
        timeout,
        connectTimeout: timeout,
        // Only for ldaps://: ldapts opens TLS straight away whenever tlsOptions are given (StartTLS passes them to startTLS).
        ...(url.startsWith('ldaps:') ? { tlsOptions: { ...tls } } : {}),
        strictDN: true,
        createConnection: ((...args: Parameters<typeof net.connect>) => track(sockets, net.connect(...args))) as typeof net.connect,
        createSecureConnection: ((...args: Parameters<typeof tlsConnect>) => track(sockets, tlsConnect(...args))) as typeof tlsConnect,
      });
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      try {
        // One deadline for the whole exchange: a server that accepts and never answers cannot hold the sign-in.
        return await Promise.race([
          run(client, account, password),
          new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              timedOut = true;
              reject(new DirectoryTimeout(`no answer within ${timeout} ms`));
            }, timeout);
          }),
        ]);
      } catch (err) {
        return { kind: 'unavailable', detail: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
      } finally {
        clearTimeout(timer);
        // A polite unbind when the server is answering; a server that is not gets its connection cut.
        if (!timedOut) await settleWithin(client.unbind(), 200);
        for (const socket of sockets) socket.destroy();
      }
    },
  };
}
