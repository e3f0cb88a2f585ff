// Response schemas of <csai-ask>, loaded with its first call (core `lazySchema`): zod and the
// contract stay out of what a page downloads before the question box is interactive.
import { z } from 'zod';
import { channel, initQuestionResult, stopResult, toolGroup } from '../../contract/channel';
import { failure, ok, paged } from '../../contract/envelope';
import { ping } from '../../contract/general';
import { checkFolderResult, kbDocument, kbFolder, uploadResult } from '../../contract/knowledge';

/** The calls the question box makes, by name. */
export const schemas = {
  tools: z.array(toolGroup),
  folders: paged(kbFolder),
  document: kbDocument,
  checkFolder: checkFolderResult,
  channel,
  sent: initQuestionResult,
  stopped: stopResult,
  ping,
};

/** The upload answer (the XHR upload parses it itself). */
export const uploadEnvelope = ok(uploadResult);
export { failure };
