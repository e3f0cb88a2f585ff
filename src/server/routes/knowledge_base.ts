import { z } from 'zod';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { errorResponses, failure, ok as okSchema, paged } from '../../contract/envelope';
import {
  allDocsQuery,
  cancelShareBody,
  checkFolderBody,
  checkFolderResult,
  copyDocBody,
  copyToQuestionBody,
  createFolderBody,
  deleteResult,
  docIdParams,
  docListQuery,
  folderIdParams,
  folderListQuery,
  getFolderQuery,
  idParams,
  imageResult,
  kbDocument,
  kbFolder,
  markdownResult,
  MAX_FILE_BYTES,
  MAX_FILES_PER_UPLOAD,
  moveDocBody,
  nameId,
  QUESTION_FOLDER_ID,
  shareDocBody,
  shareFolderBody,
  shareRecord,
  shareResult,
  translateBody,
  translateResult,
  updateFolderBody,
  uploadMessages,
  uploadResult,
} from '../../contract/knowledge';
import { AppError, badRequest } from '../errors';
import { cleanTitle, contentDisposition, MAX_TITLE_LENGTH } from '../knowledge/names';
import type { IncomingFile } from '../knowledge/service';
import { contentMatches, imageKindOf, isImage, kindFromName } from '../knowledge/sniff';
import { translator } from '../knowledge/translate';
import { requestLanguage } from '../i18n';
import { ok, type App, type Services } from './types';

const tags = ['knowledge_base'];
const tooLarge = () => new AppError(413, 'file_too_large', uploadMessages.tooLarge);
const badType = (name: string) => new AppError(400, 'unsupported_file_type', uploadMessages.badType, name);

const MALFORMED_UPLOAD = '上传内容格式不正确或不完整，请重新上传';
/** RFC 2046 §5.1.1: a boundary is 1 to 70 characters. */
const MAX_BOUNDARY_LENGTH = 70;

/** Refuses a multipart request whose boundary is missing or longer than RFC 2046 allows, before reading it. */
function checkBoundary(contentType: string) {
  const boundary = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2] ?? '';
  if (!value) throw badRequest('上传请求缺少 multipart 边界（boundary）', 'files', 'malformed_multipart');
  if (value.length > MAX_BOUNDARY_LENGTH) throw badRequest(`multipart 边界（boundary）不能超过${MAX_BOUNDARY_LENGTH}个字符`, 'files', 'malformed_multipart');
}

/** The multipart parser's own errors (a cut-off body, a broken part): the client's fault, not ours. */
const isMalformedMultipart = (err: unknown) =>
  err instanceof Error && !(err instanceof AppError) && !('code' in err && err.code) && /multipart|unexpected end of|part header/i.test(err.message);

/** How long the multipart parser may sit on received bytes without handing on a part before the upload counts as malformed. */
const UPLOAD_STALL_MS = 10_000;

/**
 * The next part of an upload, or a malformed-upload error when the parser has stopped: bytes are
 * waiting for it (the whole body received, or the request's buffer full) and none has been read
 * for UPLOAD_STALL_MS. @fastify/busboy 3.2.6 never finishes once it skips a part over 16 KB (a
 * file name with a line break, a part without Content-Disposition), which would otherwise hold the
 * request open for ever. A client that is merely slow leaves nothing waiting and is not cut off.
 */
async function nextPart<T>(parts: AsyncIterator<T>, raw: IncomingMessage): Promise<IteratorResult<T>> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_resolve, reject) => {
    let lastRead = raw.socket?.bytesRead ?? 0;
    let since = Date.now();
    const check = () => {
      const read = raw.socket?.bytesRead ?? 0;
      if (read !== lastRead) [lastRead, since] = [read, Date.now()];
      const waiting = raw.complete || raw.readableLength > 0;
      if (waiting && Date.now() - since >= UPLOAD_STALL_MS) return reject(badRequest(MALFORMED_UPLOAD, 'files', 'malformed_multipart'));
      timer = setTimeout(check, 1000);
    };
    timer = setTimeout(check, 1000);
  });
  try {
    return await Promise.race([parts.next(), stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** Knowledge bases (SPEC §7): folders, documents, uploads, sharing, public folders. */
export default async function knowledgeBaseRoutes(app: App, { config, db, runtime }: Services) {
  const { files, kb } = runtime;
  await app.register(multipart, {
    // SPEC §5 limits, set explicitly: the plugin's fileSize default is the 1 MiB body limit.
    // One file more than allowed is let through so it can be refused with the SPEC message.
    // preservePath: keep the client's name whole (it is only ever data, never a path on disk).
    preservePath: true,
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES_PER_UPLOAD + 1, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
  });

  // Every call needs a session; checked before the body is read or validated, so a signed-out
  // caller gets 401 rather than a validation error, and no upload bytes are accepted.
  app.addHook('onRequest', async (req) => {
    await req.requireUser();
  });
  // The viewer's language says the documents' progress texts (and tools' notes) in it.
  const user = async (req: FastifyRequest) => ({ userId: (await req.requireUser()).userId, lang: await requestLanguage(req, db) });
  const docList = okSchema(paged(kbDocument));
  const folderList = okSchema(paged(kbFolder));

  // ---------- upload and download ----------
  app.post('/upload', {
    schema: {
      tags,
      summary: 'Upload up to 6 files (pdf, jpg, jpeg, png, pdb, sdf; ≤150 MB each) into a folder; parsing starts at once',
      querystring: z.object({ folder_id: z.string().trim().max(100).optional() }),
      response: { 200: okSchema(uploadResult), ...errorResponses, 413: errorResponses[400] },
    },
  }, async (req) => {
    const viewer = await user(req);
    if (!req.isMultipart()) throw badRequest('请以 multipart/form-data 方式上传文件', 'files', 'not_multipart');
    checkBoundary(req.headers['content-type'] ?? '');
    let folderId = req.query.folder_id || undefined;
    // Refuse an unknown or foreign folder before reading any bytes.
    if (folderId) await kb.checkUploadTarget(viewer, folderId);
    const incoming: IncomingFile[] = [];
    try {
      const parts = req.parts()[Symbol.asyncIterator]();
      for (let next = await nextPart(parts, req.raw); !next.done; next = await nextPart(parts, req.raw)) {
        const part = next.value;
        if (part.type === 'field') {
          if (part.fieldname === 'folder_id' && !folderId && typeof part.value === 'string' && part.value.trim()) folderId = part.value.trim();
          continue;
        }
        if (incoming.length >= MAX_FILES_PER_UPLOAD) throw new AppError(400, 'too_many_files', uploadMessages.tooManyFiles, 'files');
        const title = cleanTitle(part.filename ?? '');
        if (!title) throw badRequest('文件名不能为空', 'files');
        if (title.length > MAX_TITLE_LENGTH) throw badRequest(`文件名不能超过${MAX_TITLE_LENGTH}个字符`, 'files');
        let kind = kindFromName(title);
        if (!kind) throw badType(title);
        let staged;
        try {
          staged = await files.stage(part.file);
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
          throw err;
        }
        incoming.push({ title, kind, staged });
        if (part.file.truncated) throw tooLarge();
        if (staged.size === 0) throw badRequest(`文件为空：${title}`, 'files', 'empty_file');
        // Type from content (DESIGN §9). An image is kept as the kind its bytes are.
        if (isImage(kind)) kind = imageKindOf(staged.head);
        if (!kind || !contentMatches(kind, staged.head)) throw badType(title);
        incoming[incoming.length - 1]!.kind = kind;
      }
    } catch (err) {
      await Promise.all(incoming.map((f) => files.discard(f.staged)));
      const code = (err as { code?: string }).code;
      if (code === 'FST_FILES_LIMIT') throw new AppError(400, 'too_many_files', uploadMessages.tooManyFiles, 'files');
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('表单字段过多', 'files');
      if (isMalformedMultipart(err)) throw badRequest(MALFORMED_UPLOAD, 'files', 'malformed_multipart');
      throw err;
    }
    if (!incoming.length) throw badRequest('请选择要上传的文件', 'files', 'no_files');
    const result = await kb.addDocuments(viewer, folderId ?? QUESTION_FOLDER_ID, incoming);
    return ok(result, '上传成功');
  });

  app.get('/download/:id', {
    schema: { tags, summary: 'The original file as an attachment with its original name', params: idParams },
  }, async (req, reply) => {
    const { doc, body } = await kb.openDoc(await user(req), req.params.id);
    reply
      .header('Content-Type', doc.mime)
      .header('Content-Length', String(doc.size))
      .header('Content-Disposition', contentDisposition(doc.title))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-cache');
    return reply.send(body);
  });

  // ---------- documents ----------
  app.get('/doc/:id', {
    schema: { tags, summary: 'One document with its parse state', params: idParams, response: { 200: okSchema(kbDocument), ...errorResponses } },
  }, async (req) => ok(await kb.getDoc(await user(req), req.params.id)));

  app.get('/doc_markdown/:id', {
    schema: { tags, summary: 'The parsed document as markdown', params: idParams, response: { 200: okSchema(markdownResult), ...errorResponses } },
  }, async (req) => ok(await kb.markdown(await user(req), req.params.id)));

  const translation = translator({ baseURL: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL, timeoutMs: config.LLM_IDLE_TIMEOUT_MS });
  app.post('/translate', {
    schema: {
      tags,
      summary: 'Translate a parsed document or a passage with the configured language model (503 without one)',
      body: translateBody,
      response: { 200: okSchema(translateResult), ...errorResponses, 502: failure, 503: failure },
    },
  }, async (req, reply) => {
    const viewer = await user(req);
    const text = req.body.docId ? (await kb.markdown(viewer, req.body.docId)).markdown : req.body.text!;
    if (!text.trim()) throw badRequest('该文档没有可翻译的文字', 'docId', 'nothing_to_translate');
    // The reader stopped waiting (closed the dialog, pressed 停止): the model stops writing too.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) gone.abort();
    };
    reply.raw.once('close', onClose);
    try {
      return ok(await translation.translate(text, req.body.target_lang, gone.signal));
    } finally {
      reply.raw.off('close', onClose);
    }
  });

  app.get('/get_img/:id', {
    schema: { tags, summary: 'An image document as base64', params: idParams, response: { 200: okSchema(imageResult), ...errorResponses } },
  }, async (req) => ok(await kb.imageBase64(await user(req), req.params.id)));

  app.delete('/:doc_id', {
    schema: { tags, summary: 'Delete a document (owner only)', params: docIdParams, response: { 200: okSchema(deleteResult), ...errorResponses } },
  }, async (req) => ok(await kb.deleteDoc(await user(req), req.params.doc_id), '删除成功'));

  app.post('/folder/movedoc', {
    schema: { tags, summary: 'Move documents into a folder', body: moveDocBody, response: { 200: okSchema(z.object({ moved: z.number().int() })), ...errorResponses } },
  }, async (req) => {
    const ids = req.body.doc_ids ?? [req.body.docId ?? ''];
    return ok(await kb.moveDocs(await user(req), ids, req.body.folder_id), '移动成功');
  });

  app.post('/copy_doc', {
    schema: { tags, summary: 'Copy a readable document into one of your folders', body: copyDocBody, response: { 200: okSchema(nameId), ...errorResponses } },
  }, async (req) => {
    const copied = await kb.copyDoc(await user(req), req.body.docId, req.body.folder_id);
    return ok(copied, '复制成功');
  });

  app.post('/add_doc_to_kb', {
    schema: { tags, summary: 'Add a document to a knowledge base (SPEC §8 toasts)', body: copyDocBody, response: { 200: okSchema(nameId), ...errorResponses } },
  }, async (req) => {
    const copied = await kb.copyDoc(await user(req), req.body.docId, req.body.folder_id);
    return ok(copied, '文件已添加到知识库');
  });

  app.post('/es_copy_doc_to_question_channel', {
    schema: { tags, summary: 'Copy readable documents into your question files', body: copyToQuestionBody, response: { 200: okSchema(uploadResult), ...errorResponses } },
  }, async (req) => {
    const copied = await kb.copyToQuestionFiles(await user(req), req.body.docIds);
    return ok(copied);
  });

  app.get('/all_docs', {
    schema: { tags, summary: 'Your question files, and with show_my_kb also the documents in your knowledge bases', querystring: allDocsQuery, response: { 200: docList, ...errorResponses } },
  }, async (req) => ok(await kb.allDocs(await user(req), req.query)));

  app.get('/get_shared_docs', {
    schema: { tags, summary: 'Documents shared with you one by one', querystring: docListQuery, response: { 200: docList, ...errorResponses } },
  }, async (req) => ok(await kb.sharedDocs(await user(req), req.query)));

  // ---------- folders ----------
  app.get('/folder', {
    schema: { tags, summary: 'Your folders', querystring: folderListQuery, response: { 200: folderList, ...errorResponses } },
  }, async (req) => ok(await kb.listFolders(await user(req), req.query)));

  app.post('/folder', {
    schema: { tags, summary: 'Create a folder', body: createFolderBody, response: { 200: okSchema(kbFolder), ...errorResponses } },
  }, async (req) => ok(await kb.createFolder(await user(req), req.body.name), '创建成功'));

  app.post('/folder/check_folder', {
    schema: { tags, summary: 'Whether every document of the folders is parsed', body: checkFolderBody, response: { 200: okSchema(checkFolderResult), ...errorResponses } },
  }, async (req) => ok(await kb.checkFolders(await user(req), req.body.folder_ids)));

  app.get('/folder/:folder_id', {
    schema: { tags, summary: 'The documents of a folder', params: folderIdParams, querystring: docListQuery, response: { 200: docList, ...errorResponses } },
  }, async (req) => {
    return ok(await kb.listFolderDocs(await user(req), req.params.folder_id, req.query));
  });

  app.put('/folder/:folder_id', {
    schema: { tags, summary: 'Rename a folder or make it public (owner only)', params: folderIdParams, body: updateFolderBody, response: { 200: okSchema(kbFolder), ...errorResponses } },
  }, async (req) => ok(await kb.updateFolder(await user(req), req.params.folder_id, req.body), '修改成功'));

  app.delete('/folder/:folder_id', {
    schema: { tags, summary: 'Delete a folder with its documents (owner only)', params: folderIdParams, response: { 200: okSchema(deleteResult), ...errorResponses } },
  }, async (req) => ok(await kb.deleteFolder(await user(req), req.params.folder_id), '删除成功'));

  app.get('/get_folder/:id', {
    schema: { tags, summary: 'A folder by id, or yours by name with ?folder_name=', params: idParams, querystring: getFolderQuery, response: { 200: okSchema(kbFolder), ...errorResponses } },
  }, async (req) => {
    const viewer = await user(req);
    if (req.query.folder_name !== undefined) return ok(await kb.getFolderByName(viewer, req.query.folder_name));
    return ok(await kb.getFolder(viewer, req.params.id));
  });

  app.get('/get_share_folders', {
    schema: { tags, summary: 'Folders shared with you or your department', querystring: folderListQuery, response: { 200: folderList, ...errorResponses } },
  }, async (req) => ok(await kb.listSharedFolders(await user(req), req.query)));

  app.get('/public_folders', {
    schema: { tags, summary: 'Public folders', querystring: folderListQuery, response: { 200: folderList, ...errorResponses } },
  }, async (req) => ok(await kb.listPublicFolders(await user(req), req.query)));

  // ---------- sharing ----------
  app.post('/share_folder', {
    schema: { tags, summary: 'Share a folder with people and departments (read only)', body: shareFolderBody, response: { 200: okSchema(shareResult), ...errorResponses } },
  }, async (req) => ok(await kb.share(await user(req), { type: 'folder', id: req.body.folder_id }, req.body.user_ids, req.body.department_ids), '分享成功'));

  app.post('/share_doc', {
    schema: { tags, summary: 'Share a document with people and departments (read only)', body: shareDocBody, response: { 200: okSchema(shareResult), ...errorResponses } },
  }, async (req) => ok(await kb.share(await user(req), { type: 'doc', id: req.body.docId }, req.body.user_ids, req.body.department_ids), '分享成功'));

  app.post('/cancel_share', {
    schema: { tags, summary: 'Withdraw a share you made', body: cancelShareBody, response: { 200: okSchema(deleteResult), ...errorResponses } },
  }, async (req) => ok(await kb.cancelShare(await user(req), req.body.share_id), '已取消分享'));

  app.get('/get_shared_records', {
    schema: { tags, summary: 'Every share of your folders and documents', response: { 200: okSchema(z.array(shareRecord)), ...errorResponses } },
  }, async (req) => ok(await kb.shareRecords(await user(req))));
}
