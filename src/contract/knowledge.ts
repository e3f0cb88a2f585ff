import { z } from 'zod';
import { isPlainName } from './text';
import { pageQuery } from './envelope';

/** SPEC §9: the built-in folder id for files uploaded with a question. */
export const QUESTION_FOLDER_ID = 'folder_for_question_channel';
/** SPEC §9 / §5 upload limits. */
export const MAX_FILES_PER_UPLOAD = 6;
export const MAX_FILE_BYTES = 150 * 1024 * 1024;

/** SPEC §5 messages, verbatim. */
export const uploadMessages = {
  tooManyFiles: '多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问',
  badType: '仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式',
  tooLarge: '文件大小不能超过150MB',
  duplicateName: '文件名重复，请重新上传',
} as const;

/** SPEC §3 Document.type: 1 pdf, 3 image, 5 sdf, 6 pdb; 7 a web page saved by page crawl (markdown). */
export const documentType = z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(6), z.literal(7)]);
/** SPEC §4: 1 parsing, 2 done, 3 failed. */
export const parseStatus = z.union([z.literal(1), z.literal(2), z.literal(3)]);

/** A document as every call returns it (SPEC §3 Document plus what the lists show). */
export const kbDocument = z.object({
  docId: z.string(),
  title: z.string(),
  type: documentType,
  parseStatus,
  parse_progress: z.number().int().min(0).max(100),
  progress_texts: z.array(z.string()),
  img_id: z.string().nullable(),
  download_url: z.string(),
  download_key: z.string(),
  folder_id: z.string(),
  size: z.number().int(),
  page_count: z.number().int().nullable(),
  owner_id: z.string(),
  owner_name: z.string(),
  is_owner: z.boolean(),
  created_at: z.string(),
  /** A page or paper saved from the web: where it came from and when it was fetched (ISO). */
  source_url: z.string().nullable().optional(),
  fetched_at: z.string().nullable().optional(),
});
export type KbDocument = z.infer<typeof kbDocument>;

/** A folder (knowledge base), SPEC §3: id, name, isShared, plus counts and ownership. */
export const kbFolder = z.object({
  id: z.string(),
  name: z.string(),
  isShared: z.boolean(),
  is_public: z.boolean(),
  is_owner: z.boolean(),
  owner_id: z.string(),
  owner_name: z.string(),
  doc_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type KbFolder = z.infer<typeof kbFolder>;

const folderName = z
  .string({ error: '请输入知识库名称' })
  .trim()
  .min(1, '请输入知识库名称')
  .max(100, '知识库名称不能超过100个字符')
  .refine(isPlainName, '知识库名称不能包含控制字符或不可见的格式字符');

const id = (what: string) => z.string({ error: `请提供${what}` }).trim().min(1, `请提供${what}`).max(100, `${what}无效`);

/** Sort keys of folder lists: a field name, `-` first for descending. */
export const folderSort = z.enum(['createTime', '-createTime', 'updateTime', '-updateTime', 'name', '-name']);

export const folderListQuery = pageQuery.extend({
  search: z.string().trim().max(100, '搜索关键词不能超过100个字符').optional(),
  sort: folderSort.optional(),
});

export const docListQuery = pageQuery.extend({
  search: z.string().trim().max(100, '搜索关键词不能超过100个字符').optional(),
});

export const allDocsQuery = docListQuery.extend({
  show_my_kb: z
    .enum(['0', '1', 'true', 'false'], { error: 'show_my_kb 只能是 0、1、true 或 false' })
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});

export const createFolderBody = z.object({ name: folderName }).strict();
export const updateFolderBody = z
  .object({ name: folderName.optional(), is_public: z.boolean().optional() })
  .strict()
  .refine((b) => b.name !== undefined || b.is_public !== undefined, '请提供要修改的内容');

export const folderIdParams = z.object({ folder_id: id('知识库') });
export const idParams = z.object({ id: id('编号') });
export const docIdParams = z.object({ doc_id: id('文档') });
export const getFolderQuery = z.object({ folder_name: z.string().trim().min(1, '请输入知识库名称').max(100).optional() });

export const checkFolderBody = z
  .object({ folder_ids: z.array(id('知识库'), { error: '请提供知识库列表' }).min(1, '请选择知识库').max(100) })
  .strict();
/** Per folder: how many documents are parsing, done, failed; all_parsed when none is parsing. */
export const folderParseState = z.object({
  folder_id: z.string(),
  name: z.string(),
  total: z.number().int(),
  parsing: z.number().int(),
  parsed: z.number().int(),
  failed: z.number().int(),
  all_parsed: z.boolean(),
});
export const checkFolderResult = z.object({ all_parsed: z.boolean(), folders: z.array(folderParseState) });

const docIdList = z.array(id('文档'), { error: '请选择文档' }).min(1, '请选择文档').max(100, '一次最多处理100篇文档');

/** POST folder/movedoc: one or many documents into a folder (or the question-files folder). */
export const moveDocBody = z
  .object({ folder_id: id('目标知识库'), docId: id('文档').optional(), doc_ids: docIdList.optional() })
  .strict()
  .refine((b) => b.docId !== undefined || b.doc_ids !== undefined, { message: '请选择文档', path: ['docId'] });

/** POST copy_doc and add_doc_to_kb: SPEC §5 needs both a target folder and a document. */
export const copyDocBody = z
  .object({
    folder_id: z.string({ error: '请选择知识库' }).trim().min(1, '请选择知识库').max(100),
    docId: z.string({ error: '请选择文档' }).trim().min(1, '请选择文档').max(100),
  })
  .strict();

export const copyToQuestionBody = z
  .object({ docIds: docIdList })
  .strict();

/** Upload and copy results: SPEC §3 Upload response. */
export const nameId = z.object({ name: z.string(), docId: z.string() });
export const uploadResult = z.object({ name_id: z.array(nameId) });

export const markdownResult = z.object({ docId: z.string(), markdown: z.string() });
export const imageResult = z.object({ docId: z.string(), img_base64: z.string(), mime: z.string() });

const shareTargets = {
  user_ids: z.array(id('用户')).max(100).default([]),
  department_ids: z.array(id('部门')).max(100).default([]),
};
const hasTarget = (b: { user_ids: string[]; department_ids: string[] }) => b.user_ids.length + b.department_ids.length > 0;
export const shareFolderBody = z
  .object({ folder_id: id('知识库'), ...shareTargets })
  .strict()
  .refine(hasTarget, { message: '请选择要分享的人或部门', path: ['user_ids'] });
export const shareDocBody = z
  .object({ docId: id('文档'), ...shareTargets })
  .strict()
  .refine(hasTarget, { message: '请选择要分享的人或部门', path: ['user_ids'] });
export const cancelShareBody = z.object({ share_id: id('分享记录') }).strict();

/** One share made by the signed-in user (get_shared_records). */
export const shareRecord = z.object({
  share_id: z.string(),
  resource_type: z.enum(['folder', 'doc']),
  resource_id: z.string(),
  resource_name: z.string(),
  target_type: z.enum(['user', 'department']),
  target_id: z.string(),
  target_name: z.string(),
  created_at: z.string(),
});
export const shareResult = z.object({ shared: z.number().int(), records: z.array(shareRecord) });

export const deleteResult = z.object({ deleted: z.number().int() });

/** POST /api/v1/knowledge_base/translate: a document's parsed text, or the given text, into a language. */
export const translateBody = z
  .object({
    docId: z.string().trim().min(1, '请选择文档').max(64).optional(),
    text: z.string().trim().min(1, '请输入要翻译的内容').max(20_000, '一次最多翻译20000个字符').optional(),
    target_lang: z.enum(['zh', 'en'], { message: '目标语言只能是 zh 或 en' }).default('zh'),
  })
  .strict()
  .refine((b) => (b.docId === undefined) !== (b.text === undefined), { message: '请提供 docId 或 text 其中之一', path: ['docId'] });

/** The translation, whether the source was cut to the first 20,000 characters, and the model used. */
export const translateResult = z.object({ translation: z.string(), truncated: z.boolean(), model: z.string() });
