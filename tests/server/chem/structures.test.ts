import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChemService } from '../../../src/server/chem/service';
import { isPdbCode, looksLikePdb, pdbIdcode, structures } from '../../../src/server/chem/structures';
import { type Db } from '../../../src/server/db/database';
import { openTestDatabase } from '../postgres-harness';
import { DomainError, toAppError } from '../../../src/server/errors';
import { diskFileStore } from '../../../src/server/files/file-store';

const header = (code: string) => `HEADER    ${'OXYGEN TRANSPORT'.padEnd(40)}07-MAR-84   ${code}              `;
const pdb = (code: string) => `${header(code)}\nATOM      1  N   VAL A   1      19.323  29.727  42.781  1.00 49.05           N  \nEND\n`;

describe('PDB text helpers', () => {
  it('reads the idcode from columns 63–66 of HEADER', () => {
    expect(pdbIdcode(pdb('4hhb'))).toBe('4HHB');
    expect(pdbIdcode('ATOM      1  N   VAL A   1\n')).toBeUndefined();
    expect(pdbIdcode('HEADER    SHORT\n')).toBeUndefined();
  });

  it('tells PDB ids from document ids', () => {
    expect(['1CRN', '4hhb', 'pdb_00001crn'].every(isPdbCode)).toBe(true);
    expect(['CRN1', '1CR', '1CRNX', 'Ab3dEf9_kLmN-opq'].some(isPdbCode)).toBe(false);
  });

  it('recognises PDB records and not an HTML error page', () => {
    expect(looksLikePdb(pdb('1CRN'))).toBe(true);
    expect(looksLikePdb('<!doctype html><title>Not found</title>')).toBe(false);
  });
});

describe('the PDB mirror (policy widened to a loopback stand-in)', () => {
  let mirror: http.Server;
  let db: Db;
  const chem = createChemService();
  let lookup: ReturnType<typeof structures>;
  const requested: string[] = [];
  beforeAll(async () => {
    mirror = http.createServer((req, res) => {
      requested.push(req.url ?? '');
      if (req.url === '/4HHB.pdb') return res.end(pdb('4HHB'));
      if (req.url === '/5ABC.pdb') return res.end('<!doctype html><p>maintenance</p>');
      if (req.url === '/6ERR.pdb') return res.writeHead(500).end('oops');
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'csai-structures-'));
    db = await openTestDatabase(dir);
    lookup = structures({
      db,
      files: diskFileStore(dir),
      chem,
      pdbMirror: `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/{id}.pdb`,
      fetchOptions: { isAllowedAddress: (a) => a === '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await chem.close();
    await db.destroy();
    await new Promise<void>((resolve) => mirror.close(() => resolve()));
  });

  const viewer = { userId: 'nobody-with-documents' };
  // The service refuses with a domain error; the status is the one the API answers with.
  const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => (e instanceof DomainError ? toAppError(e) : undefined));

  it('fetches an id the user has no document for, upper-cased into the template', async () => {
    const res = await lookup.pdb(viewer, '4hhb');
    expect(res).toMatchObject({ pdb_id: '4HHB', source: 'mirror' });
    expect(res.pdb).toBe(pdb('4HHB'));
    expect(requested).toContain('/4HHB.pdb');
  });

  it("says the id does not exist when the mirror says so", async () => {
    const err = await failure(lookup.pdb(viewer, '9zzz'));
    expect(err).toMatchObject({ statusCode: 404, code: 'pdb_not_found' });
    expect(err?.message).toContain('9ZZZ');
  });

  it('refuses what is not PDB text and server errors with 502', async () => {
    expect(await failure(lookup.pdb(viewer, '5abc'))).toMatchObject({ statusCode: 502, code: 'pdb_mirror_failed' });
    expect(await failure(lookup.pdb(viewer, '6err'))).toMatchObject({ statusCode: 502, message: expect.stringContaining('HTTP 500') });
  });
});
