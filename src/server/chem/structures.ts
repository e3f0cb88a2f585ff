import { sql } from 'kysely';
import type { MolString, PdbString } from '../../contract/mol';
import type { Db } from '../db/database';
import { DomainError } from '../errors';
import { canAccess, docReadable, type Viewer } from '../access/access';
import type { FileStore } from '../files/file-store';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../net/safe-fetch';
import type { ChemService } from './service';

/** SPEC §3 document types this module serves. */
const SDF_TYPE = 5;
const PDB_TYPE = 6;
/** A PDB file larger than this is not sent inline; the user downloads it instead. */
export const MAX_PDB_BYTES = 50 * 1024 * 1024;
/** How many of the viewer's PDB documents are searched for an id. */
const PDB_SEARCH_LIMIT = 200;
const HEAD_BYTES = 8 * 1024;

/** A classic 4-character PDB id (digit then 3 letters or digits) or an extended `pdb_0000xxxx` id. */
export const isPdbCode = (s: string) => /^[0-9][a-z0-9]{3}$/i.test(s) || /^pdb_[0-9a-z]{8}$/i.test(s);

/** The idcode of a PDB file's HEADER record (columns 63–66), upper-case, if there is one. */
export function pdbIdcode(text: string): string | undefined {
  const header = /^HEADER.*$/m.exec(text)?.[0];
  const code = header?.slice(62, 66).trim();
  return code && /^[0-9][A-Za-z0-9]{3}$/.test(code) ? code.toUpperCase() : undefined;
}

/** Text that looks like PDB records (a mirror's error page does not). */
export const looksLikePdb = (text: string) => /^(HEADER|ATOM  |HETATM|CRYST1|MODEL |REMARK|COMPND|TITLE )/m.test(text.slice(0, 64 * 1024));

const unavailable = (id: string) =>
  new DomainError('pdb_unavailable', `PDB 结构 ${id} 在离线环境中不可用：知识库中没有该结构的 PDB 文件，也未配置 PDB 镜像（CSAI_PDB_MIRROR）。请先上传 ${id}.pdb。`);

export interface StructureDeps {
  db: Db;
  files: FileStore;
  chem: ChemService;
  /** URL template with `{id}`, or undefined when the server is offline. */
  pdbMirror?: string;
  /** For tests: options passed to the SSRF-safe client. */
  fetchOptions?: SafeFetchOptions;
}

/** Molecules of parsed SDF documents and PDB structures, read under the documents' access rule. */
export function structures({ db, files, chem, pdbMirror, fetchOptions }: StructureDeps) {
  async function readPdbFile(doc: { id: string; storage_name: string; size: number }): Promise<string> {
    if (doc.size > MAX_PDB_BYTES) throw new DomainError('pdb_too_large', `PDB 文件过大（超过 ${MAX_PDB_BYTES / 1024 / 1024} MB），请下载后查看`, 'pdb_id');
    return (await files.readAll(doc.storage_name)).toString('utf8');
  }

  async function readHead(storageName: string): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await files.read(storageName, { start: 0, end: HEAD_BYTES - 1 })) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return Buffer.concat(chunks).subarray(0, HEAD_BYTES).toString('latin1');
  }

  /** The viewer's readable PDB document whose HEADER idcode (or file name) is `code`: their own first. */
  async function findPdbDocument(viewer: Viewer, code: string) {
    const candidates = await db
      .selectFrom('kb_documents')
      .select(['id', 'title', 'storage_name', 'size', 'owner_id'])
      .where('type', '=', PDB_TYPE)
      .where(docReadable(viewer.userId))
      .orderBy(sql`case when owner_id = ${viewer.userId} then 0 else 1 end`)
      .orderBy('created_at', 'desc')
      .limit(PDB_SEARCH_LIMIT)
      .execute();
    const upper = code.toUpperCase();
    let byTitle: (typeof candidates)[number] | undefined;
    for (const doc of candidates) {
      let head: string;
      try {
        head = await readHead(doc.storage_name);
      } catch {
        continue; // a file being replaced or removed: skip it
      }
      if (pdbIdcode(head) === upper) return doc;
      const stem = doc.title.replace(/\.[^.]*$/, '').trim().toUpperCase();
      if (!byTitle && stem === upper) byTitle = doc;
    }
    return byTitle;
  }

  async function fromMirror(code: string): Promise<string> {
    if (!pdbMirror) throw unavailable(code);
    const url = pdbMirror.replaceAll('{id}', encodeURIComponent(code.toUpperCase()));
    let res;
    try {
      res = await safeFetch(url, { maxBytes: MAX_PDB_BYTES, timeoutMs: 20_000, headers: { accept: 'chemical/x-pdb, text/plain, */*' }, ...fetchOptions });
    } catch (err) {
      if (err instanceof SafeFetchError) throw new DomainError('pdb_mirror_failed', `无法从 PDB 镜像获取 ${code}：${err.message}`);
      throw err;
    }
    if (res.status === 404 || res.status === 410) throw new DomainError('pdb_not_found', `PDB 镜像中没有结构 ${code}，请检查 PDB 编号`);
    const text = res.text();
    if (res.status !== 200 || !looksLikePdb(text)) {
      throw new DomainError('pdb_mirror_failed', `无法从 PDB 镜像获取 ${code}：镜像返回了 HTTP ${res.status}，内容不是 PDB 格式`);
    }
    return text;
  }

  return {
    /** One molecule of a parsed SDF document, key `${docId}:${idx}`. */
    async molecule(viewer: Viewer, molKey: string): Promise<MolString> {
      const colon = molKey.lastIndexOf(':');
      const docId = molKey.slice(0, colon);
      const idx = Number(molKey.slice(colon + 1));
      const doc = await canAccess(db, viewer, { type: 'doc', id: docId }, 'read');
      if (doc.type !== SDF_TYPE) throw new DomainError('not_sdf', '该文档不是 SDF 分子文件，没有可读取的分子', 'mol_key');
      if (doc.parse_status === 1) throw new DomainError('parsing', '文件正在解析中，请等待解析完成');
      const row = await db
        .selectFrom('kb_molecules')
        .select(['idx', 'name', 'smiles', 'molfile'])
        .where('doc_id', '=', docId)
        .where('idx', '=', idx)
        .executeTakeFirst();
      if (!row) throw new DomainError('not_found', `文档中没有序号为 ${idx} 的分子`);
      let smiles = row.smiles ?? '';
      if (!smiles) smiles = await chem.describe({ molfile: row.molfile }).then((d) => d.canonicalSmiles, () => '');
      return { mol_key: `${docId}:${idx}`, molfile: row.molfile, name: row.name ?? '', smiles };
    },

    /** A PDB structure: one of the viewer's documents (by document id or HEADER idcode), else the mirror. */
    async pdb(viewer: Viewer, pdbId: string): Promise<PdbString> {
      if (!isPdbCode(pdbId)) {
        const doc = await canAccess(db, viewer, { type: 'doc', id: pdbId }, 'read');
        if (doc.type !== PDB_TYPE) throw new DomainError('not_pdb', '该文档不是 PDB 结构文件', 'pdb_id');
        const text = await readPdbFile(doc);
        return { pdb_id: pdbIdcode(text) ?? '', pdb: text, source: 'document', doc_id: doc.id };
      }
      const code = pdbId.toUpperCase();
      const doc = await findPdbDocument(viewer, code);
      if (doc) return { pdb_id: code, pdb: await readPdbFile(doc), source: 'document', doc_id: doc.id };
      return { pdb_id: code, pdb: await fromMirror(code), source: 'mirror' };
    },
  };
}
