import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser, startServer, type Client, type TestServer } from '../helpers';
import { aspirinSdf, makePdf, upload, waitParsed } from '../knowledge-helpers';

// The same file (name and bytes) uploaded twice into question boxes is one document,
// not a second copy parsed again; the bytes are stored once in any case (content addresses).
// Another name, other bytes or another user: a document of its own.
const QUESTION_FOLDER = 'folder_for_question_channel';
let server: TestServer;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  server = await startServer();
  alice = (await signedInUser(server)).client;
  bob = (await signedInUser(server)).client;
});
afterAll(async () => server?.close());

const documents = (owner: string) => {
  const db = server.sqlite();
  try {
    return (db.prepare('select count(*) as n from kb_documents d join users u on u.id = d.owner_id where u.email = ? and d.folder_id is null').get(owner) as { n: number }).n;
  } finally {
    db.close();
  }
};
const emailOf = async (c: Client) => (await c.get<{ email: string }>('/api/v1/auth/me')).body.data.email;

describe('uploading into the question box', () => {
  it('the same file twice gives the same document; another name, other bytes or another user, a new one', async () => {
    const pdf = makePdf([['Aspirin acetylates COX-1.']]);
    const first = await upload(alice, [{ name: 'paper.pdf', data: pdf }], QUESTION_FOLDER);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const docId = first.body.data.name_id[0]!.docId;
    await waitParsed(alice, docId);
    const email = await emailOf(alice);
    const before = documents(email);

    const again = await upload(alice, [{ name: 'paper.pdf', data: pdf }], QUESTION_FOLDER);
    expect(again.status).toBe(200);
    expect(again.body.data.name_id).toEqual([{ name: 'paper.pdf', docId }]);
    expect(documents(email)).toBe(before);
    // With a new file beside it: the known one is reused, the new one added.
    const sdf = Buffer.from(aspirinSdf);
    const mixed = await upload(alice, [{ name: 'paper.pdf', data: pdf }, { name: 'aspirin.sdf', data: sdf }], QUESTION_FOLDER);
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect(mixed.body.data.name_id[0]!.docId).toBe(docId);
    expect(documents(email)).toBe(before + 1);

    // Under another name: a document of its own (the name is part of what the asker sees and cites).
    const renamed = await upload(alice, [{ name: 'copy.pdf', data: pdf }], QUESTION_FOLDER);
    expect(renamed.body.data.name_id[0]!.docId).not.toBe(docId);

    // Different bytes: a new document.
    const other = await upload(alice, [{ name: 'paper.pdf', data: makePdf([['Ibuprofen inhibits COX.']]) }], QUESTION_FOLDER);
    expect(other.body.data.name_id[0]!.docId).not.toBe(docId);

    // Another user: their own document, never Alice's.
    const theirs = await upload(bob, [{ name: 'paper.pdf', data: pdf }], QUESTION_FOLDER);
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.name_id[0]!.docId).not.toBe(docId);
  });
});
