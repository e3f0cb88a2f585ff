import { conversationTitle } from '../contract/text';
/** SPEC §9: files per question or upload. */
export const MAX_FILES = 6;
/** SPEC §9: knowledge bases per question. */
export const MAX_KNOWLEDGE_BASES = 2;
/** SPEC §9: largest file, in bytes (150 MB). */
export const MAX_FILE_BYTES = 150 * 1024 * 1024;
/** SPEC §9: allowed file extensions, lower case. */
export const ALLOWED_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'pdb', 'sdf'] as const;
/** SPEC §9: channel names are the first 50 characters of the question. */
export const CHANNEL_NAME_LENGTH = 50;

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png']);

/** SPEC §5 messages, verbatim. */
export const VALIDATION_MESSAGES = {
  tooManyUploads: '多文档问答的上限是6篇，如需处理更多文档，请创建知识库后再提问',
  badType: '仅支持PDF、JPEG、JPG、PNG、PDB和SDF文件格式',
  tooLarge: '文件大小不能超过150MB',
  duplicate: '文件名重复，请重新上传',
  tooManyFiles: '最多只能选择6个文件',
  tooManyKnowledgeBases: '最多只能选择2个知识库',
  filesChosen: '已经选择文件，不能选择知识库',
  knowledgeChosen: '已经选择知识库，不能选择文件',
} as const;

/** A rule's verdict: fine, or the message to show. */
export type Verdict = { ok: true } | { ok: false; message: string };
const pass: Verdict = { ok: true };
const fail = (message: string): Verdict => ({ ok: false, message });

/** The extension of a file name, lower case, without the dot ('' when none). */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot + 1).toLowerCase();
}

/** SPEC §5: a question of only whitespace (or invisible characters, or bare code fences) is not sent. */
export function isSendableQuestion(question: string): boolean {
  return channelNameFor(question) !== '';
}

/**
 * SPEC §4: the channel name for a question: its first line with text, cleaned of control and
 * invisible format characters, cut to 50 characters (a question with a line break
 * or a pasted code block starts a conversation too).
 */
export function channelNameFor(question: string): string {
  return conversationTitle(question, CHANNEL_NAME_LENGTH);
}

/** A file as the rules see it (a `File` fits). */
export interface FileLike {
  name: string;
  size: number;
}

/** The outcome of checking a batch of files for upload. */
export interface UploadCheck<F extends FileLike> {
  /** Files to upload, with the name each is uploaded under (images may be renamed). */
  accepted: { file: F; name: string }[];
  /** The first problem found, when any file was refused. */
  message?: string;
}

/**
 * SPEC §5 upload rules for a new batch next to the names already chosen: at most 6 in all,
 * allowed types, at most 150 MB, duplicate names refused except images, which become
 * `name_1.png`, `name_2.png`, … The whole batch is refused when it would pass 6 files.
 */
export function checkUpload<F extends FileLike>(files: readonly F[], existingNames: readonly string[] = []): UploadCheck<F> {
  if (files.length + existingNames.length > MAX_FILES) return { accepted: [], message: VALIDATION_MESSAGES.tooManyUploads };
  const taken = new Set(existingNames);
  const accepted: UploadCheck<F>['accepted'] = [];
  let message: string | undefined;
  for (const file of files) {
    const ext = fileExtension(file.name);
    if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(ext)) {
      message ??= VALIDATION_MESSAGES.badType;
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      message ??= VALIDATION_MESSAGES.tooLarge;
      continue;
    }
    let name = file.name;
    if (taken.has(name)) {
      if (!IMAGE_EXTENSIONS.has(ext)) {
        message ??= VALIDATION_MESSAGES.duplicate;
        continue;
      }
      // SPEC §5: images are renamed _1, _2 instead of refused.
      name = uniqueImageName(file.name, taken);
    }
    taken.add(name);
    accepted.push({ file, name });
  }
  return message ? { accepted, message } : { accepted };
}

/** `photo.png` → the first of `photo_1.png`, `photo_2.png`, … not in `taken`. */
export function uniqueImageName(name: string, taken: ReadonlySet<string>): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let i = 1; ; i++) {
    const candidate = `${stem}_${i}${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** SPEC §5: choosing one more document (files are blocked while knowledge bases are chosen). */
export function canSelectFile(selectedFiles: number, selectedKnowledgeBases: number): Verdict {
  if (selectedKnowledgeBases > 0) return fail(VALIDATION_MESSAGES.knowledgeChosen);
  if (selectedFiles >= MAX_FILES) return fail(VALIDATION_MESSAGES.tooManyFiles);
  return pass;
}

/** SPEC §5: choosing one more knowledge base (blocked while files are chosen). */
export function canSelectKnowledgeBase(selectedKnowledgeBases: number, selectedFiles: number): Verdict {
  if (selectedFiles > 0) return fail(VALIDATION_MESSAGES.filesChosen);
  if (selectedKnowledgeBases >= MAX_KNOWLEDGE_BASES) return fail(VALIDATION_MESSAGES.tooManyKnowledgeBases);
  return pass;
}

/** SPEC §5: adding a document to a knowledge base needs both a folder and a document. */
export function canAddToKnowledgeBase(folderId: string | undefined | null, docId: string | undefined | null): boolean {
  return !!folderId && !!docId;
}

// SPEC §5's keys in the question box live in a module of their own: home's first module uses them
// for the server-rendered copy of the box, before this one loads.
export { questionKeyAction, type QuestionKeyAction } from './question-keys';

/** SPEC §2: pasted text has its HTML tags removed. */
export function stripHtmlTags(text: string): string {
  return text.replace(/<[^>]*>/g, '');
}

/** The `docIds` query parameter (one id or a comma-separated list) as a list of ids. */
export function parseDocIds(value: string | null | undefined): string[] {
  if (!value) return [];
  return [...new Set(value.split(',').map((s) => s.trim()).filter((s) => /^[\w-]{1,64}$/.test(s)))];
}
