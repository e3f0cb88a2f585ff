import { openSqlite, type ApiResponse, type Client, type TestServer } from './helpers';

export const KB = '/api/v1/knowledge_base';

export interface UploadFile {
  name: string;
  data: Buffer | string;
  type?: string;
}

/** Sends files as multipart/form-data the way the browser's FormData does, with the client's cookies and CSRF headers. */
export async function upload<T = { name_id: Array<{ name: string; docId: string }> }>(client: Client, files: UploadFile[], folderId?: string): Promise<ApiResponse<T>> {
  if (!client.csrf) await client.get('/api/v1/');
  const form = new FormData();
  for (const f of files) {
    const bytes = typeof f.data === 'string' ? Buffer.from(f.data) : f.data;
    form.append('files', new Blob([Uint8Array.from(bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  }
  const res = await fetch(`${client.base}${KB}/upload${folderId ? `?folder_id=${encodeURIComponent(folderId)}` : ''}`, {
    method: 'POST',
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; '),
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': client.csrf ?? '',
    },
    body: form,
  });
  const text = await res.text();
  let body: ApiResponse<T>['body'];
  try {
    body = JSON.parse(text);
  } catch {
    body = { success: false, data: undefined as T, message: text };
  }
  return { status: res.status, body, headers: res.headers };
}

/** Opens the test server's SQLite file directly (WAL lets it share with the server). */
export function openDb(server: TestServer) {
  return openSqlite(server.dataDir);
}

/** Puts a user into a (new or existing) department, as an administrator would. Returns the department id. */
export function joinDepartment(server: TestServer, userId: string, department: string): string {
  const db = openDb(server);
  try {
    let row = db.prepare('select id from departments where name = ?').get(department) as { id: string } | undefined;
    if (!row) {
      row = { id: `dep-${department}` };
      db.prepare('insert into departments (id, name, created_at) values (?, ?, ?)').run(row.id, department, new Date().toISOString());
    }
    db.prepare('update users set department_id = ? where id = ?').run(row.id, userId);
    return row.id;
  } finally {
    db.close();
  }
}

/** A small valid PDF with the given lines of Latin text (Helvetica), one page per entry of `pages`. */
export function makePdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const pageIds: number[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  let next = 4;
  for (const lines of pages) {
    const contentId = next++;
    const pageId = next++;
    const ops = lines
      .map((line, i) => {
        const size = i === 0 ? 20 : 11;
        const y = 760 - i * 22;
        return `BT /F1 ${size} Tf 72 ${y} Td (${line.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj ET`;
      })
      .join('\n');
    objects[contentId] = `<< /Length ${Buffer.byteLength(ops)} >>\nstream\n${ops}\nendstream`;
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentId} 0 R >>`;
    pageIds.push(pageId);
  }
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = Buffer.byteLength(out);
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A 1×1 PNG. */
export const tinyPng = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360000002000154a24f9e0000000049454e44ae426082', 'hex');
/** The start of a JPEG (enough for sniffing; not decodable). */
export const jpegHead = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);

/** A tiny SDF with aspirin and caffeine (hand-drawn connection tables). */
export const aspirinSdf = `aspirin
  test

 13 13  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0
    1.2000    0.7000    0.0000 C   0  0
    2.4000    0.0000    0.0000 C   0  0
    2.4000   -1.4000    0.0000 C   0  0
    1.2000   -2.1000    0.0000 C   0  0
    0.0000   -1.4000    0.0000 C   0  0
    1.2000    2.1000    0.0000 C   0  0
    0.0000    2.8000    0.0000 O   0  0
    2.4000    2.8000    0.0000 O   0  0
   -1.2000   -2.1000    0.0000 O   0  0
   -1.2000   -3.5000    0.0000 C   0  0
   -2.4000   -1.4000    0.0000 O   0  0
   -2.4000   -4.2000    0.0000 C   0  0
  1  2  2  0
  2  3  1  0
  3  4  2  0
  4  5  1  0
  5  6  2  0
  6  1  1  0
  2  7  1  0
  7  8  1  0
  7  9  2  0
  6 10  1  0
 10 11  1  0
 11 12  2  0
 11 13  1  0
M  END
> <NAME>
Aspirin

> <CAS>
50-78-2

$$$$
`;

/** Polls a document until it leaves parseStatus 1. */
export async function waitParsed(client: Client, docId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get<{ parseStatus: number; parse_progress: number; progress_texts: string[] }>(`${KB}/doc/${docId}`);
    if (res.status !== 200) throw new Error(`doc ${docId}: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.parseStatus !== 1) return res.body.data;
    if (Date.now() > until) throw new Error(`doc ${docId} still parsing: ${JSON.stringify(res.body.data)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
