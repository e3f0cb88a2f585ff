import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Debian's OpenLDAP server (package slapd); the tests need it. */
export const SLAPD = '/usr/sbin/slapd';
const SLAPADD = '/usr/sbin/slapadd';

export { freePort } from './server-process';
import { freePort } from './server-process';

/** `{SSHA}` of a password as slapd stores it (SHA-1 of password + salt, then the salt, base64). */
const ssha = (password: string) => {
  const salt = randomBytes(8);
  return `{SSHA}${Buffer.concat([createHash('sha1').update(password).update(salt).digest(), salt]).toString('base64')}`;
};

/** LDIF values that are not plain ASCII go base64-encoded (`attr:: …`, RFC 2849). */
const ldifLine = (attr: string, value: string) => (/^[\x20-\x7e]*$/.test(value) && !value.startsWith(' ') && !value.startsWith(':') ? `${attr}: ${value}` : `${attr}:: ${Buffer.from(value, 'utf8').toString('base64')}`);

export interface LdapPerson {
  uid: string;
  cn: string;
  sn: string;
  mail?: string;
  ou?: string;
  password: string;
}

export const BASE = 'dc=example,dc=com';
export const PEOPLE = `ou=people,${BASE}`;
export const ADMIN_DN = `cn=admin,${BASE}`;
export const ADMIN_PASSWORD = 'admin-secret';

/**
 * A real slapd on a free 127.0.0.1 port: a temp folder with a small slapd.conf (mdb backend) and
 * the given people loaded with slapadd, started in the foreground; `stop()` ends it and removes the folder.
 */
export async function startSlapd(people: LdapPerson[], { tls = false }: { tls?: boolean } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-slapd-'));
  const certs = tls ? makeCertificates(dir) : undefined;
  fs.mkdirSync(path.join(dir, 'db'));
  const conf = path.join(dir, 'slapd.conf');
  fs.writeFileSync(
    conf,
    [
      'include /etc/ldap/schema/core.schema',
      'include /etc/ldap/schema/cosine.schema',
      'include /etc/ldap/schema/inetorgperson.schema',
      `pidfile ${path.join(dir, 'slapd.pid')}`,
      ...(certs ? [`TLSCACertificateFile ${certs.ca}`, `TLSCertificateFile ${certs.cert}`, `TLSCertificateKeyFile ${certs.key}`] : []),
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      'maxsize 16777216',
      `suffix "${BASE}"`,
      `rootdn "${ADMIN_DN}"`,
      `rootpw ${ADMIN_PASSWORD}`,
      `directory ${path.join(dir, 'db')}`,
      'access to attrs=userPassword by anonymous auth by self write by * none',
      'access to * by * read',
      '',
    ].join('\n'),
  );
  const entries = [
    [`dn: ${BASE}`, 'objectClass: top', 'objectClass: dcObject', 'objectClass: organization', 'o: Example', 'dc: example'],
    [`dn: ${PEOPLE}`, 'objectClass: organizationalUnit', 'ou: people'],
    ...people.map((p) => [
      `dn: uid=${p.uid},${PEOPLE}`,
      'objectClass: inetOrgPerson',
      `uid: ${p.uid}`,
      ldifLine('cn', p.cn),
      ldifLine('sn', p.sn),
      ...(p.mail ? [`mail: ${p.mail}`] : []),
      ...(p.ou ? [ldifLine('ou', p.ou)] : []),
      `userPassword: ${ssha(p.password)}`,
    ]),
  ];
  const ldif = path.join(dir, 'data.ldif');
  fs.writeFileSync(ldif, entries.map((e) => e.join('\n')).join('\n\n') + '\n');
  const added = spawnSync(SLAPADD, ['-f', conf, '-l', ldif], { encoding: 'utf8' });
  if (added.status !== 0) throw new Error(`slapadd failed: ${added.stderr}`);

  const port = await freePort();
  const url = `ldap://127.0.0.1:${port}`;
  const tlsPort = certs ? await freePort() : undefined;
  const listen = [`${url}/`, ...(tlsPort ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])].join(' ');
  // -d 0: stay in the foreground (so killing the child stops it) and log nothing.
  const child: ChildProcess = spawn(SLAPD, ['-f', conf, '-h', listen, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd exited (${child.exitCode}): ${stderr}`);
    if (await canConnect(port)) break;
    if (Date.now() > deadline) throw new Error(`slapd did not listen on ${url}: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    /** With `tls`: the ldaps:// address and the PEM file of the CA that signed the server's certificate. */
    ldapsUrl: tlsPort ? `ldaps://127.0.0.1:${tlsPort}` : undefined,
    caFile: certs?.ca,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A throw-away CA and a server certificate for 127.0.0.1 signed by it (openssl), in `dir`. */
function makeCertificates(dir: string) {
  const f = (name: string) => path.join(dir, name);
  const run = (args: string[]) => {
    const r = spawnSync('openssl', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
  };
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=CSAI test CA']);
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('server.key'), '-out', f('server.csr'), '-subj', '/CN=127.0.0.1']);
  fs.writeFileSync(f('ext.cnf'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n');
  run(['x509', '-req', '-in', f('server.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f('server.pem'), '-days', '2', '-extfile', f('ext.cnf')]);
  return { ca: f('ca.pem'), cert: f('server.pem'), key: f('server.key') };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A TCP server on 127.0.0.1 that accepts connections and never answers (a directory that hangs). */
export async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.resume(); // read and drop what is sent, so the client's close is seen
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `ldap://127.0.0.1:${port}`,
    /** How many connections it took (and kept open). */
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
