// The question box's response schemas, loaded with the first call that needs them (zod is not in
// the box's first load), and its fixed request values.
import type { z } from 'zod';
import { lazySchema } from './api';

/** SPEC §9: the built-in folder for question files (contract `QUESTION_FOLDER_ID`; kept here so zod stays out of the first load). */
export const QUESTION_FOLDER_ID = 'folder_for_question_channel';
/** SPEC §9 / §7: the question box lists folders with page 1, size 100. */
export const FOLDER_PAGE = '?page=1&size=100';

/** Response schemas, loaded with the first call that needs them (zod is not in the box's first load). */
const loadSchemas = () => import('./ask-schemas').then((m) => m.schemas);
export const responses = {
  tools: lazySchema(() => loadSchemas().then((s) => s.tools)),
  folders: lazySchema(() => loadSchemas().then((s) => s.folders)),
  document: lazySchema(() => loadSchemas().then((s) => s.document)),
  checkFolder: lazySchema(() => loadSchemas().then((s) => s.checkFolder)),
  channel: lazySchema(() => loadSchemas().then((s) => s.channel)),
  sent: lazySchema(() => loadSchemas().then((s) => s.sent)),
  stopped: lazySchema(() => loadSchemas().then((s) => s.stopped)),
  uploaded: lazySchema(() => loadSchemas().then((s) => s.uploaded)),
  online: lazySchema(() => loadSchemas().then((s) => s.online)),
};

/** A document as the question box reads it (GET knowledge_base/doc). */
export type KbDocument = z.output<Awaited<ReturnType<typeof loadSchemas>>['document']>;
