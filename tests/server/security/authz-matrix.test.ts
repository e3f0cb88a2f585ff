import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeTable } from '../../../src/server/route-table';
import { Client, signedInUser, startServer, STACK_FRAME, type TestServer } from '../helpers';
import { aspirinSdf, KB, makePdf, tinyPng, upload, waitParsed } from '../knowledge-helpers';

// The authorisation matrix, generated from the server's own route table (every route
// Fastify registered, read through an onRoute hook — src/server/route-table.ts). Each route is
// called as the owner of a resource, as someone it is shared with (reader), as a stranger, as an
// administrator (who has no rights over other people's data), with the owner's API token, signed
// out, with a revoked session and with a revoked token. A route missing from EXPECTED below fails
// the first test, so a new route cannot ship without its cases.

type Actor = 'anonymous' | 'revokedSession' | 'revokedToken' | 'owner' | 'token' | 'reader' | 'stranger' | 'admin';
const ACTORS: readonly Actor[] = ['anonymous', 'revokedSession', 'revokedToken', 'stranger', 'admin', 'reader', 'token', 'owner'];

/**
 * What an actor must get. `ok`: 2xx. `denied`: 403 or 404 (someone else's thing). `unauth`: 401.
 * `handled`: any answer below 500 (the route's own validation decides). A number: exactly that.
 * Whatever is expected, nobody but the owner (and a reader, for shared things) may see the owner's ids.
 */
type Outcome = 'ok' | 'denied' | 'unauth' | 'handled' | number;

/** The owner's things the requests point at. `shared*` are shared with the reader; `private*` with nobody. */
interface OwnerThings {
  sharedFolder: string;
  sharedDoc: string;
  sharedSdf: string;
  sharedPdb: string;
  sharedPng: string;
  shareId: string;
  privateFolder: string;
  privateDoc: string;
  channel: string;
  question: string;
  tokenId: string;
  /** A finished (failed) docking task of the owner, with its prepared receptor kept. */
  task: string;
  /** An ended docking batch of the owner (one failed task). */
  batch: string;
  /** A file the owner's sandboxed run kept. */
  artifact: string;
}
/** The caller's own folder (a target for copies; absent when signed out). */
interface Mine {
  folder: string;
}
type Body = { json: unknown } | { files: Array<{ name: string; data: Buffer | string }> };
interface Call {
  path: string;
  body?: Body;
}

interface Case {
  /** public: anyone; user: any signed-in person (session or token); admin: administrators only; token: API tokens only. */
  access: 'public' | 'user' | 'admin' | 'token';
  /** The request, given the owner's things (fresh ones for a destructive owner call) and the caller's own folder. */
  call: (o: OwnerThings, me: Mine) => Call;
  /** Outcomes that differ from the defaults of `access`. */
  expect?: Partial<Record<Actor, Outcome>>;
  /** The call deletes or withdraws what it points at: the owner and the token each get fresh things. */
  destructive?: boolean;
  /**
   * Whose thing the call points at: the owner's, shared with the reader for reading (`shared-read`),
   * the same shared thing but a change only its owner may make (`shared-write`: the reader gets 403),
   * or never shared (`private`). Absent: nobody's — every signed-in caller acts on their own.
   */
  of?: 'shared-read' | 'shared-write' | 'private';
}

const pdf = makePdf([['Authorisation matrix', 'A small document.']]);
const json = (v: unknown): Body => ({ json: v });

const EXPECTED: Record<string, Case> = {
  // ---------- public ----------
  // (A route registered as '/' inside a prefix answers with and without the slash; the table lists it once.)
  'GET /api/v1': { access: 'public', call: () => ({ path: '/api/v1' }) },
  'GET /api/v1/prompt/get_alert': { access: 'public', call: () => ({ path: '/api/v1/prompt/get_alert' }) },
  'GET /api/v1/tools': { access: 'public', call: () => ({ path: '/api/v1/tools' }) },
  'GET /api/v1/auth/csrf': { access: 'public', call: () => ({ path: '/api/v1/auth/csrf' }) },
  'GET /api/v1/auth/session': { access: 'public', call: () => ({ path: '/api/v1/auth/session' }) },
  'GET /api/v1/auth/options': { access: 'public', call: () => ({ path: '/api/v1/auth/options' }), expect: all('ok') },
  // Sign-up etc. with a body that is refused (invalid or unknown): these never act on the caller's session.
  'POST /api/v1/auth/sign-up': { access: 'public', call: () => ({ path: '/api/v1/auth/sign-up', body: json({}) }), expect: all(400) },
  'POST /api/v1/auth/sign-in': { access: 'public', call: () => ({ path: '/api/v1/auth/sign-in', body: json({ account: 'nobody@example.com', password: 'wrong-password' }) }), expect: all(400) },
  'POST /api/v1/auth/activate': { access: 'public', call: () => ({ path: '/api/v1/auth/activate', body: json({ token: 'not-a-token' }) }), expect: all(400) },
  'POST /api/v1/auth/otp/send': { access: 'public', call: () => ({ path: '/api/v1/auth/otp/send', body: json({}) }), expect: all(400) },
  'POST /api/v1/auth/otp/verify': { access: 'public', call: () => ({ path: '/api/v1/auth/otp/verify', body: json({}) }), expect: all(400) },
  'POST /api/v1/auth/forgot-password': { access: 'public', call: () => ({ path: '/api/v1/auth/forgot-password', body: json({}) }), expect: all(400) },
  'POST /api/v1/auth/reset-password': { access: 'public', call: () => ({ path: '/api/v1/auth/reset-password', body: json({}) }), expect: all(400) },
  // Signing out is allowed to anyone (it ends the caller's own session, if any); checked last for the owner.
  'POST /api/v1/auth/sign-out': { access: 'public', call: () => ({ path: '/api/v1/auth/sign-out' }), expect: { token: 'ok', owner: 'ok' } },
  // The API description (swagger UI and its files).
  'GET /api/docs': { access: 'public', call: () => ({ path: '/api/docs' }) },
  'GET /api/docs/static/index.html': { access: 'public', call: () => ({ path: '/api/docs/static/index.html' }) },
  'GET /api/docs/static/swagger-initializer.js': { access: 'public', call: () => ({ path: '/api/docs/static/swagger-initializer.js' }) },
  'GET /api/docs/json': { access: 'public', call: () => ({ path: '/api/docs/json' }) },
  'GET /api/docs/yaml': { access: 'public', call: () => ({ path: '/api/docs/yaml' }) },
  'GET /api/docs/static/*': { access: 'public', call: () => ({ path: '/api/docs/static/%2e%2e%2f%2e%2e%2fpackage.json' }), expect: all(404) },

  // ---------- administrators ----------
  'PUT /api/v1/prompt/alert': { access: 'admin', call: () => ({ path: '/api/v1/prompt/alert', body: json({ is_show: false, content: '' }) }) },

  // ---------- any signed-in person, nobody's resource ----------
  'GET /api/v1/departments': { access: 'user', call: () => ({ path: '/api/v1/departments' }) },
  'GET /api/v1/diagnostics': { access: 'user', call: () => ({ path: '/api/v1/diagnostics' }) },
  'GET /api/v1/search_person_department': { access: 'user', call: () => ({ path: '/api/v1/search_person_department?keyword=matrix' }) },
  'GET /api/v1/auth/me': { access: 'user', call: () => ({ path: '/api/v1/auth/me' }) },
  'PUT /api/v1/auth/me/language': { access: 'user', call: () => ({ path: '/api/v1/auth/me/language', body: json({ language: 'zh' }) }) },
  // Tokens are managed by a signed-in person, never by a token (403 token_not_allowed).
  'GET /api/v1/auth/tokens': { access: 'user', call: () => ({ path: '/api/v1/auth/tokens' }), expect: { token: 403 } },
  'POST /api/v1/auth/tokens': { access: 'user', call: () => ({ path: '/api/v1/auth/tokens', body: json({ name: 'matrix' }) }), expect: { token: 403 } },
  'DELETE /api/v1/auth/tokens/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/auth/tokens/${o.tokenId}` }), destructive: true, expect: { token: 403 } },
  'POST /api/v1/knowledge_base/upload': { access: 'user', call: () => ({ path: `${KB}/upload`, body: { files: [{ name: `m${Math.random().toString(36).slice(2, 8)}.pdf`, data: pdf }] } }) },
  'GET /api/v1/knowledge_base/all_docs': { access: 'user', call: () => ({ path: `${KB}/all_docs?show_my_kb=1` }) },
  'GET /api/v1/knowledge_base/get_shared_docs': { access: 'user', call: () => ({ path: `${KB}/get_shared_docs` }) },
  'GET /api/v1/knowledge_base/get_share_folders': { access: 'user', call: () => ({ path: `${KB}/get_share_folders` }) },
  'GET /api/v1/knowledge_base/get_shared_records': { access: 'user', call: () => ({ path: `${KB}/get_shared_records` }) },
  'GET /api/v1/knowledge_base/public_folders': { access: 'user', call: () => ({ path: `${KB}/public_folders` }) },
  'GET /api/v1/knowledge_base/folder': { access: 'user', call: () => ({ path: `${KB}/folder` }) },
  'POST /api/v1/knowledge_base/folder': { access: 'user', call: () => ({ path: `${KB}/folder`, body: json({ name: `m${Math.random().toString(36).slice(2, 8)}` }) }) },
  'POST /api/v1/knowledge_base/translate': {
    access: 'user',
    call: () => ({ path: `${KB}/translate`, body: json({ text: 'hello' }) }),
    // No language model configured: 503 for everyone signed in.
    expect: { owner: 503, token: 503, reader: 503, stranger: 503, admin: 503 },
  },
  'POST /api/v1/mol/draw_svg': { access: 'user', call: () => ({ path: '/api/v1/mol/draw_svg', body: json({ smiles: 'CCO' }) }) },
  'POST /api/v1/mol/admet': { access: 'user', call: () => ({ path: '/api/v1/mol/admet', body: json({ smiles: ['CCO'] }) }) },
  'POST /api/v1/mol/admet/export': { access: 'user', call: () => ({ path: '/api/v1/mol/admet/export', body: json({ smiles: ['CCO'], format: 'csv' }) }) },
  'POST /api/v1/mol/name_to_smiles': { access: 'user', call: () => ({ path: '/api/v1/mol/name_to_smiles', body: json({ name: 'ethanol' }) }) },
  'POST /api/v1/mol/smiles_completion': { access: 'user', call: () => ({ path: '/api/v1/mol/smiles_completion', body: json({ smiles: 'CCO' }) }) },
  // Searches only what the caller may read: a stranger's search finds none of the owner's molecules.
  'POST /api/v1/mol/search': { access: 'user', call: () => ({ path: '/api/v1/mol/search', body: json({ query: 'CC(=O)Oc1ccccc1C(=O)O', mode: 'exact' }) }) },
  'GET /api/v1/channel': { access: 'user', call: () => ({ path: '/api/v1/channel' }) },
  'POST /api/v1/channel': { access: 'user', call: () => ({ path: '/api/v1/channel', body: json({ name: 'matrix' }) }) },

  // ---------- the owner's folders and documents (shared with the reader) ----------
  'GET /api/v1/knowledge_base/doc/:id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc/${o.sharedDoc}` }) },
  'GET /api/v1/knowledge_base/doc_markdown/:id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc_markdown/${o.sharedDoc}` }) },
  'GET /api/v1/knowledge_base/doc/:id/sar': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc/${o.sharedDoc}/sar` }) },
  'GET /api/v1/knowledge_base/doc/:id/sar/export': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc/${o.sharedDoc}/sar/export?format=csv` }) },
  'GET /api/v1/knowledge_base/doc/:id/structures': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc/${o.sharedDoc}/structures` }) },
  // Any reader may correct a structure; the shared document has none, so an unknown structure is a 404 for every reader.
  'PUT /api/v1/knowledge_base/doc/:id/structures/:sid': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/doc/${o.sharedDoc}/structures/1`, body: json({ smiles: 'CCO' }) }), expect: { owner: 404, token: 404, reader: 404 } },
  'GET /api/v1/knowledge_base/download/:id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/download/${o.sharedDoc}` }) },
  'GET /api/v1/knowledge_base/get_img/:id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/get_img/${o.sharedPng}` }) },
  'GET /api/v1/knowledge_base/get_folder/:id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/get_folder/${o.sharedFolder}` }) },
  'GET /api/v1/knowledge_base/folder/:folder_id': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/folder/${o.sharedFolder}` }) },
  'POST /api/v1/knowledge_base/folder/check_folder': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/folder/check_folder`, body: json({ folder_ids: [o.sharedFolder] }) }) },
  'POST /api/v1/knowledge_base/translate#doc': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/translate`, body: json({ docId: o.sharedDoc }) }), expect: { owner: 503, token: 503, reader: 503 } },
  // Copies of a readable document into the caller's own folder.
  'POST /api/v1/knowledge_base/copy_doc': { access: 'user', of: 'shared-read', call: (o, me) => ({ path: `${KB}/copy_doc`, body: json({ docId: o.sharedDoc, folder_id: me.folder }) }) },
  'POST /api/v1/knowledge_base/add_doc_to_kb': { access: 'user', of: 'shared-read', call: (o, me) => ({ path: `${KB}/add_doc_to_kb`, body: json({ docId: o.sharedDoc, folder_id: me.folder }) }) },
  'POST /api/v1/knowledge_base/es_copy_doc_to_question_channel': { access: 'user', of: 'shared-read', call: (o) => ({ path: `${KB}/es_copy_doc_to_question_channel`, body: json({ docIds: [o.sharedDoc] }) }) },
  'GET /api/v1/mol/get_mol_string': { access: 'user', of: 'shared-read', call: (o) => ({ path: `/api/v1/mol/get_mol_string?mol_key=${o.sharedSdf}:1` }) },
  'GET /api/v1/mol/get_pdb_string': { access: 'user', of: 'shared-read', call: (o) => ({ path: `/api/v1/mol/get_pdb_string?pdb_id=${o.sharedPdb}` }) },
  // Changes: only the owner; the reader gets 403, everyone else 404.
  'PUT /api/v1/knowledge_base/folder/:folder_id': { access: 'user', of: 'shared-write', call: (o) => ({ path: `${KB}/folder/${o.sharedFolder}`, body: json({ name: `m${Math.random().toString(36).slice(2, 8)}` }) }) },
  'DELETE /api/v1/knowledge_base/folder/:folder_id': { access: 'user', of: 'shared-write', destructive: true, call: (o) => ({ path: `${KB}/folder/${o.sharedFolder}` }) },
  'DELETE /api/v1/knowledge_base/:doc_id': { access: 'user', of: 'shared-write', destructive: true, call: (o) => ({ path: `${KB}/${o.sharedDoc}` }) },
  // Moving the owner's document into the caller's folder, and uploading into the owner's folder.
  'POST /api/v1/knowledge_base/folder/movedoc': { access: 'user', of: 'shared-write', destructive: true, call: (o, me) => ({ path: `${KB}/folder/movedoc`, body: json({ folder_id: me.folder, docId: o.sharedDoc }) }) },
  'POST /api/v1/knowledge_base/upload#folder': { access: 'user', of: 'shared-write', call: (o) => ({ path: `${KB}/upload?folder_id=${o.sharedFolder}`, body: { files: [{ name: `m${Math.random().toString(36).slice(2, 8)}.pdf`, data: pdf }] } }) },
  'POST /api/v1/knowledge_base/share_folder': { access: 'user', of: 'shared-write', call: (o) => ({ path: `${KB}/share_folder`, body: json({ folder_id: o.sharedFolder, department_ids: ['dep-none'] }) }), expect: { owner: 'handled', token: 'handled' } },
  'POST /api/v1/knowledge_base/share_doc': { access: 'user', of: 'shared-write', call: (o) => ({ path: `${KB}/share_doc`, body: json({ docId: o.sharedDoc, department_ids: ['dep-none'] }) }), expect: { owner: 'handled', token: 'handled' } },
  'POST /api/v1/knowledge_base/cancel_share': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `${KB}/cancel_share`, body: json({ share_id: o.shareId }) }) },

  // ---------- the owner's channels and questions (never shared) ----------
  'PUT /api/v1/channel/:channel_id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/channel/${o.channel}`, body: json({ name: 'renamed' }) }) },
  'DELETE /api/v1/channel/:channel_id': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `/api/v1/channel/${o.channel}` }) },
  'GET /api/v1/channel/channel_docs/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/channel/channel_docs/${o.channel}` }) },
  'GET /api/v1/channel/questions/:channel_id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/channel/questions/${o.channel}` }) },
  'GET /api/v1/channel/questions/:question_id/events': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/channel/questions/${o.question}/events` }) },
  'DELETE /api/v1/channel/questions/:question_id': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `/api/v1/channel/questions/${o.question}` }) },
  'PUT /api/v1/channel/stop_questions/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/channel/stop_questions/${o.question}` }) },
  'POST /api/v1/channel/answer/effect': { access: 'user', of: 'private', call: (o) => ({ path: '/api/v1/channel/answer/effect', body: json({ question_id: o.question, effect: 'like' }) }) },
  // Asking in the owner's channel, and with the owner's private document as context.
  'POST /api/v1/channel/init_questions': { access: 'user', of: 'private', call: (o) => ({ path: '/api/v1/channel/init_questions', body: json({ question: '总结', channel_id: o.channel, docIdList: [o.privateDoc] }) }) },

  // ---------- online research: nothing here reaches the network ----------
  // Which sources exist (never their addresses): public, like the tool list.
  'GET /api/v1/online/status': { access: 'public', call: () => ({ path: '/api/v1/online/status' }), expect: all('ok') },
  // No literature service is configured here (the server is started with the URLs empty): 503 for everyone signed in.
  'GET /api/v1/literature/search': { access: 'user', call: () => ({ path: '/api/v1/literature/search?query=aspirin' }), expect: { owner: 503, token: 503, reader: 503, stranger: 503, admin: 503 } },
  // Saving into the owner's folder: the folder is checked before anything is fetched, so only the
  // owner gets as far as the address, which is refused (loopback) without a request going out.
  'POST /api/v1/crawl/save': { access: 'user', of: 'shared-write', call: (o) => ({ path: '/api/v1/crawl/save', body: json({ url: 'http://127.0.0.1/page', folder_id: o.sharedFolder }) }), expect: { owner: 400, token: 400 } },
  'POST /api/v1/literature/save_pdf': { access: 'user', of: 'shared-write', call: (o) => ({ path: '/api/v1/literature/save_pdf', body: json({ pdf_url: 'http://127.0.0.1/paper.pdf', title: 'Matrix', folder_id: o.sharedFolder }) }), expect: { owner: 400, token: 400 } },
  // MCP servers are managed by administrators only. None is configured: the admin's add is refused
  // (nothing answers on port 1 of loopback), reconnect and remove of an unknown one are 404.
  'GET /api/v1/mcp_servers': { access: 'admin', call: () => ({ path: '/api/v1/mcp_servers' }) },
  'POST /api/v1/mcp_servers': { access: 'admin', call: () => ({ path: '/api/v1/mcp_servers', body: json({ name: 'matrix', transport: 'http', url: 'http://127.0.0.1:1/mcp' }) }), expect: { admin: 400 } },
  'POST /api/v1/mcp_servers/:id/reconnect': { access: 'admin', call: () => ({ path: '/api/v1/mcp_servers/matrix/reconnect' }), expect: { admin: 404 } },
  'DELETE /api/v1/mcp_servers/:id': { access: 'admin', call: () => ({ path: '/api/v1/mcp_servers/matrix' }), expect: { admin: 404 } },
  'PUT /api/v1/mcp_servers/:id/auth': { access: 'admin', call: () => ({ path: '/api/v1/mcp_servers/matrix/auth', body: json({ auth: null }) }), expect: { admin: 404 } },

  // ---------- code runs: the owner's private document mounted, the owner's kept file ----------
  // Someone else's document is not mounted: the run is refused (400) with the message an unknown id
  // gets ("不在所附的文档中，或你无权读取"), so the refusal does not tell it exists (tests/server/sandbox/sandbox.test.ts).
  'POST /api/v1/code/run': { access: 'user', of: 'private', call: (o) => ({ path: '/api/v1/code/run', body: json({ code: 'print(1)', doc_ids: [o.privateDoc] }) }), expect: { reader: 400, stranger: 400, admin: 400 } },
  'GET /api/v1/code/artifacts/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/code/artifacts/${o.artifact}` }) },
  // Every caller lists and deletes only their own files of runs without a question.
  'GET /api/v1/code/artifacts': { access: 'user', call: () => ({ path: '/api/v1/code/artifacts' }) },
  'DELETE /api/v1/code/artifacts': { access: 'user', destructive: true, call: () => ({ path: '/api/v1/code/artifacts' }) },
  'DELETE /api/v1/code/artifacts/:id': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `/api/v1/code/artifacts/${o.artifact}` }) },

  // ---------- docking tasks: only their owner sees them ----------
  'GET /api/v1/tasks': { access: 'user', call: () => ({ path: '/api/v1/tasks' }) },
  // Docking against the owner's shared PDB document: a caller who cannot read it gets 404 (the receptor
  // is looked up first); the owner and the reader get as far as the SMILES, which Open Babel cannot
  // read, so it is refused (400) before anything is queued — no docking starts.
  'POST /api/v1/tasks/docking': { access: 'user', of: 'shared-read', call: (o) => ({ path: '/api/v1/tasks/docking', body: json({ smiles: 'C1CC(', receptor: o.sharedPdb }) }), expect: { owner: 400, token: 400, reader: 400 } },
  'GET /api/v1/tasks/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/${o.task}` }) },
  // An ended task is deleted with its files, by its owner only.
  'DELETE /api/v1/tasks/:id': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `/api/v1/tasks/${o.task}` }) },
  // The owner's task has ended: its owner is told so (409); anyone else learns nothing (404).
  'POST /api/v1/tasks/:id/cancel': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/${o.task}/cancel` }), expect: { owner: 409, token: 409 } },
  'POST /api/v1/tasks/:id/check': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/${o.task}/check`, body: json({}) }), expect: { owner: 404, token: 404 } }, // the fixture task's receptor has no document to redock from
  'GET /api/v1/tasks/:id/download': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/${o.task}/download?format=receptor` }) },
  // Batches, as tasks: a reader of the PDB gets as far as the molecules (400), others 404.
  'POST /api/v1/tasks/docking/batch': { access: 'user', of: 'shared-read', call: (o) => ({ path: '/api/v1/tasks/docking/batch', body: json({ ligands: [{ smiles: 'C1CC(' }], receptor: o.sharedPdb }) }), expect: { owner: 400, token: 400, reader: 400 } },
  'GET /api/v1/tasks/batches': { access: 'user', call: () => ({ path: '/api/v1/tasks/batches' }) },
  'GET /api/v1/tasks/batches/:id': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/batches/${o.batch}` }) },
  'POST /api/v1/tasks/batches/:id/cancel': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/batches/${o.batch}/cancel` }), expect: { owner: 409, token: 409 } },
  'DELETE /api/v1/tasks/batches/:id': { access: 'user', of: 'private', destructive: true, call: (o) => ({ path: `/api/v1/tasks/batches/${o.batch}` }) },
  'GET /api/v1/tasks/batches/:id/download': { access: 'user', of: 'private', call: (o) => ({ path: `/api/v1/tasks/batches/${o.batch}/download?format=csv` }) },

  // ---------- MCP: API tokens only (a session cookie is not enough) ----------
  'POST /mcp': { access: 'token', call: () => ({ path: '/mcp', body: json({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }) }) },
  'GET /mcp': { access: 'token', call: () => ({ path: '/mcp' }), expect: { token: 405 } },
  'DELETE /mcp': { access: 'token', call: () => ({ path: '/mcp' }), expect: { token: 405 } },
};

/** The same outcome for every actor. */
function all(outcome: Outcome): Record<Actor, Outcome> {
  return Object.fromEntries(ACTORS.map((a) => [a, outcome])) as Record<Actor, Outcome>;
}

/** The default outcome of an actor for a case. */
function expected(c: Case, actor: Actor): Outcome {
  const given = c.expect?.[actor];
  if (given !== undefined) return given;
  const refused = actor === 'anonymous' || actor === 'revokedSession' || actor === 'revokedToken';
  switch (c.access) {
    case 'public':
      return 'handled';
    case 'token':
      return actor === 'token' ? 'ok' : 'unauth';
    case 'admin':
      if (refused) return 'unauth';
      return actor === 'admin' ? 'ok' : 403;
    case 'user': {
      if (refused) return 'unauth';
      if (actor === 'owner' || actor === 'token') return 'ok';
      // Routes that point at none of the owner's things: the caller acts on their own.
      if (!c.of) return 'ok';
      if (actor === 'reader' && c.of === 'shared-read') return 'ok';
      if (actor === 'reader' && c.of === 'shared-write') return 403;
      return 'denied';
    }
  }
}

const matches = (status: number, outcome: Outcome) =>
  outcome === 'ok'
    ? status >= 200 && status < 300
    : outcome === 'denied'
      ? status === 403 || status === 404
      : outcome === 'unauth'
        ? status === 401
        : outcome === 'handled'
          ? status < 500
          : status === outcome;

let server: TestServer;
interface Person {
  client: Client;
  id: string;
  folder: string;
}
const people = {} as Record<'owner' | 'reader' | 'stranger' | 'admin', Person>;
let ownerToken = '';
let revokedToken = '';
let revokedSessionCookies = new Map<string, string>();
let things: OwnerThings;

async function person(admin = false): Promise<Person> {
  const { client, id } = await signedInUser(server);
  if (admin) {
    const db = server.sqlite();
    try {
      db.prepare('update users set is_admin = 1 where id = ?').run(id);
    } finally {
      db.close();
    }
  }
  const folder = await client.post<{ id: string }>(`${KB}/folder`, { name: `own${Math.random().toString(36).slice(2, 8)}` });
  if (folder.status !== 200) throw new Error(`folder: ${JSON.stringify(folder.body)}`);
  return { client, id, folder: folder.body.data.id };
}

const must = <T>(res: { status: number; body: { data: T } }, what: string): T => {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};

/**
 * The owner's things, shared with the reader where the name says so. `fresh` makes only what a
 * destructive call removes (a folder with one document, a share, a channel with a question, and a
 * token when `withToken`), reusing the rest from the first set.
 */
async function ownerThings(fresh?: { base: OwnerThings; withToken: boolean }): Promise<OwnerThings> {
  const { client } = people.owner;
  const name = () => `f${Math.random().toString(36).slice(2, 8)}`;
  const sharedFolder = must(await client.post<{ id: string }>(`${KB}/folder`, { name: name() }), 'folder').id;
  const files = fresh
    ? [{ name: 'shared.pdf', data: pdf }]
    : [
        { name: 'shared.pdf', data: pdf },
        { name: 'shared.sdf', data: aspirinSdf },
        { name: 'shared.pdb', data: 'HETATM    1  C1  LIG A   1       0.000   0.000   0.000  1.00  0.00           C\nEND\n' },
        { name: 'shared.png', data: tinyPng, type: 'image/png' },
      ];
  const shared = must(await upload(client, files, sharedFolder), 'upload').name_id.map((n) => n.docId);
  const share = must(await client.post<{ records: Array<{ share_id: string }> }>(`${KB}/share_folder`, { folder_id: sharedFolder, user_ids: [people.reader.id] }), 'share');
  const channel = must(await client.post<{ id: string }>('/api/v1/channel/', { name: '矩阵' }), 'channel').id;
  const question = must(await client.post<{ question_id: string }>('/api/v1/channel/init_questions', { question: '总结', channel_id: channel, docIdList: [] }), 'ask').question_id;
  const tokenId = !fresh || fresh.withToken ? must(await client.post<{ id: string }>('/api/v1/auth/tokens', { name: name() }), 'token').id : fresh.base.tokenId;
  // An ended docking task, and a file of a run without a question: the deletes of such take them.
  if (fresh) return { ...fresh.base, sharedFolder, sharedDoc: shared[0]!, shareId: share.records[0]!.share_id, channel, question, tokenId, ...ownerTaskAndArtifact() };
  const privateFolder = must(await client.post<{ id: string }>(`${KB}/folder`, { name: name() }), 'folder').id;
  const [privateDoc] = must(await upload(client, [{ name: 'private.pdf', data: pdf }], privateFolder), 'upload').name_id.map((n) => n.docId);
  return {
    // Kept with the question (its readers may read it; run-file deletes leave it alone).
    ...ownerTaskAndArtifact(question),
    sharedFolder,
    sharedDoc: shared[0]!,
    sharedSdf: shared[1]!,
    sharedPdb: shared[2]!,
    sharedPng: shared[3]!,
    shareId: share.records[0]!.share_id,
    privateFolder,
    privateDoc: privateDoc!,
    channel,
    question,
    tokenId,
  };
}

/**
 * A docking task of the owner that has ended (failed, with its prepared receptor kept) and a file
 * the owner's sandboxed run kept, written as the task service and the artifact store keep them:
 * the matrix then reads them without running Vina or the sandbox for the fixture.
 */
function ownerTaskAndArtifact(question: string | null = null): { task: string; artifact: string; batch: string } {
  const task = `t${randomBytes(8).toString('hex')}`;
  const artifact = randomBytes(16).toString('base64url');
  const batch = `b${randomBytes(8).toString('hex')}`;
  const batchTask = `t${randomBytes(8).toString('hex')}`;
  const at = new Date().toISOString();
  const spec = { smiles: 'CCO', docked_smiles: 'CCO', receptor: 'matrix', box: { center: [0, 0, 0], size: [20, 20, 20], source: 'explicit', label: '' }, reference: false, exhaustiveness: 8, num_modes: 9, seed: 1, cpu: 1 };
  fs.mkdirSync(path.join(server.dataDir, 'tasks', task), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, 'tasks', task, 'receptor.pdb'), 'ATOM      1  CA  ALA A   1       0.000   0.000   0.000  1.00  0.00           C\nEND\n');
  fs.mkdirSync(path.join(server.dataDir, 'artifacts'), { recursive: true });
  fs.writeFileSync(path.join(server.dataDir, 'artifacts', artifact), 'a,b\n1,2\n');
  const db = server.sqlite();
  try {
    db.prepare("insert into tasks (id, user_id, kind, job_id, state, progress, message, title, input, result, created_at, started_at, finished_at, updated_at) values (?, ?, 'docking', null, 'failed', 1, '对接失败', 'CCO', ?, null, ?, ?, ?, ?)")
      .run(task, people.owner.id, JSON.stringify(spec), at, at, at, at);
    db.prepare("insert into artifacts (id, user_id, name, mime, kind, size, created_at, question_id) values (?, ?, 'table.csv', 'text/plain; charset=utf-8', 'file', 8, ?, ?)").run(artifact, people.owner.id, at, question);
    db.prepare('insert into docking_batches (id, user_id, title, input, created_at, updated_at) values (?, ?, ?, ?, ?, ?)').run(batch, people.owner.id, '批量对接 1 个分子 → matrix', JSON.stringify({ receptor: 'matrix', box: spec.box, exhaustiveness: 8, num_modes: 9, seed: 1, count: 1 }), at, at);
    db.prepare("insert into tasks (id, user_id, kind, job_id, state, progress, message, title, input, result, created_at, started_at, finished_at, updated_at, batch_id, batch_index) values (?, ?, 'docking', null, 'failed', 1, '对接失败', 'CCO', ?, null, ?, ?, ?, ?, ?, 1)")
      .run(batchTask, people.owner.id, JSON.stringify(spec), at, at, at, at, batch);
  } finally {
    db.close();
  }
  return { task, artifact, batch };
}

/** Sends a call as an actor: cookies and CSRF headers for sessions, `Authorization: Bearer` (no cookies) for tokens. */
async function send(actor: Actor, method: string, call: Call): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = {};
  let cookies = new Map<string, string>();
  let client: Client | undefined;
  if (actor === 'token' || actor === 'revokedToken') headers.authorization = `Bearer ${actor === 'token' ? ownerToken : revokedToken}`;
  else if (actor === 'revokedSession') cookies = revokedSessionCookies;
  else if (actor === 'anonymous') client = new Client(server.url);
  else client = people[actor].client;
  if (client) {
    if (!client.csrf) await client.get('/api/v1/');
    cookies = client.cookies;
  }
  headers['x-forwarded-for'] = client?.ip ?? '10.200.0.1';
  if (cookies.size) {
    headers.cookie = [...cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    headers['x-requested-with'] = 'XMLHttpRequest';
    headers['x-csrf-token'] = cookies.get('XSRF-TOKEN') ?? '';
  }
  let body: string | FormData | undefined;
  if (call.body && 'json' in call.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(call.body.json);
  } else if (call.body) {
    body = new FormData();
    for (const f of call.body.files) body.append('files', new Blob([Uint8Array.from(Buffer.from(f.data))]), f.name);
  }
  if (call.path.startsWith('/mcp')) headers.accept = 'application/json, text/event-stream';
  const controller = new AbortController();
  const res = await fetch(server.url + call.path, { method, headers, body, signal: controller.signal, redirect: 'manual' });
  // An answer stream stays open until the answer ends: its status and first bytes are enough.
  if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const reader = res.body!.getReader();
    const first = await reader.read();
    controller.abort();
    return { status: res.status, text: Buffer.from(first.value ?? new Uint8Array()).toString() };
  }
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  // No literature service (their public addresses are the defaults): the matrix never reaches the network.
  server = await startServer({ PUBMED_URL: '', EUROPEPMC_URL: '', OPENALEX_URL: '' });
  people.owner = await person();
  people.reader = await person();
  people.stranger = await person();
  people.admin = await person(true);
  things = await ownerThings();
  // The owner's API token, and one revoked.
  ownerToken = must(await people.owner.client.post<{ token: string }>('/api/v1/auth/tokens', { name: 'matrix' }), 'token').token;
  const revoked = must(await people.owner.client.post<{ token: string; id: string }>('/api/v1/auth/tokens', { name: 'revoked' }), 'token');
  revokedToken = revoked.token;
  must(await people.owner.client.request('DELETE', `/api/v1/auth/tokens/${revoked.id}`), 'revoke token');
  // A second session of the owner, signed out: its cookies (and the CSRF token bound to them) are kept.
  const second = new Client(server.url);
  const signIn = await second.post('/api/v1/auth/sign-in', { account: await emailOf(people.owner.id), password: 'passw0rd-ok' });
  expect(signIn.status).toBe(200);
  await second.get('/api/v1/');
  revokedSessionCookies = new Map(second.cookies);
  expect((await second.post('/api/v1/auth/sign-out')).status).toBe(200);
  // The documents are parsed before reads are tried (a parsing document answers 409 to some reads).
  for (const id of [things.sharedDoc, things.sharedSdf, things.sharedPdb, things.sharedPng, things.privateDoc]) await waitParsed(people.owner.client, id);
}, 180_000);
afterAll(() => server?.close());

async function emailOf(userId: string) {
  const db = server.sqlite();
  try {
    return (db.prepare('select email from users where id = ?').get(userId) as { email: string }).email;
  } finally {
    db.close();
  }
}

const isPerson = (a: Actor): a is keyof typeof people => a in people;
const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe('the authorisation matrix', () => {
  it('has cases for every registered route, and no case for a route that is gone', () => {
    const registered = routeTable(server.app).map(routeKey);
    expect(registered.length).toBeGreaterThan(60);
    const missing = registered.filter((k) => !(k in EXPECTED));
    expect(missing, 'routes without an entry in EXPECTED (add their cases)').toEqual([]);
    const stale = Object.keys(EXPECTED).map((k) => k.replace(/#.*$/, '')).filter((k) => !registered.includes(k));
    expect(stale, 'entries for routes that no longer exist').toEqual([]);
  });

  it('gives each actor on each route what the table says: 401 signed out or revoked, 403/404 on others\' things, never 5xx, never the owner\'s private ids', async () => {
    const failures: string[] = [];
    // Ids nobody but the owner may see; the shared ones only the owner and the reader.
    const privateIds = [things.privateFolder, things.privateDoc, things.channel, things.question, things.tokenId, things.task, things.artifact];
    const sharedIds = [things.sharedFolder, things.sharedDoc];
    const sharedOnly = new Set<string>();
    // Non-owners first, so a wrongful change by one of them would show in the owner's calls.
    for (const actor of ACTORS) {
      for (const [key, c] of Object.entries(EXPECTED)) {
        const method = key.split(' ')[0]!;
        // The owner's destructive calls get things of their own, so later calls still find theirs.
        const o = c.destructive && (actor === 'owner' || actor === 'token') ? await ownerThings({ base: things, withToken: key.includes('/tokens/') }) : things;
        const me: Mine = { folder: isPerson(actor) ? people[actor].folder : people.owner.folder };
        // Signing out ends the caller's session: the owner's comes after the loop, the others' not at all.
        if (key === 'POST /api/v1/auth/sign-out' && isPerson(actor)) continue;
        const call = c.call(o, me);
        const res = await send(actor, method, call);
        const want = expected(c, actor);
        if (!matches(res.status, want)) failures.push(`${key} as ${actor}: ${res.status}, expected ${want} — ${res.text.slice(0, 160)}`);
        // 5xx only where the table says so (503: no language model configured), never otherwise.
        if (res.status >= 500 && res.status !== want) failures.push(`${key} as ${actor}: ${res.status}`);
        if (STACK_FRAME.test(res.text)) failures.push(`${key} as ${actor}: a stack trace in the answer`);
        if (actor !== 'owner' && actor !== 'token') {
          const seen = [...privateIds, ...(actor === 'reader' ? [] : sharedIds)].filter((id) => res.text.includes(id));
          // The owner's id echoed in the caller's own refused request is not a leak; anything else is.
          const echoed = call.path + JSON.stringify(call.body ?? '');
          for (const id of seen) if (!(res.status >= 400 && echoed.includes(id))) failures.push(`${key} as ${actor}: shows the owner's ${id}`);
          if (res.status < 300) for (const id of sharedIds) if (res.text.includes(id)) sharedOnly.add(`${key} as ${actor}`);
        }
      }
    }
    // Sign-out last: it ends the owner's session, after which the same cookie is refused.
    const out = await send('owner', 'POST', { path: '/api/v1/auth/sign-out' });
    if (out.status !== 200) failures.push(`sign-out as owner: ${out.status}`);
    const after = await people.owner.client.get('/api/v1/auth/me');
    if (after.status !== 401) failures.push(`/auth/me after sign-out: ${after.status}`);
    expect(failures).toEqual([]);
    // The reader did see the shared things (the matrix is not vacuous).
    expect([...sharedOnly].filter((k) => k.endsWith('as reader')).length).toBeGreaterThan(3);
  }, 300_000);

  it('left the owner\'s things as they were after every refused call', async () => {
    const owner = new Client(server.url);
    expect((await owner.post('/api/v1/auth/sign-in', { account: await emailOf(people.owner.id), password: 'passw0rd-ok' })).status).toBe(200);
    const folder = await owner.get<{ name: string }>(`${KB}/get_folder/${things.sharedFolder}`);
    expect(folder.status).toBe(200);
    expect((await owner.get(`${KB}/doc/${things.sharedDoc}`)).status).toBe(200);
    expect((await owner.get(`/api/v1/channel/questions/${things.channel}`)).status).toBe(200);
    const records = await owner.get<Array<{ share_id: string }>>(`${KB}/get_shared_records`);
    expect(records.body.data.map((r) => r.share_id)).toContain(things.shareId);
  });
});
