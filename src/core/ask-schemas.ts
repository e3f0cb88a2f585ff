// Response schemas of the question box model (core `lazySchema`), loaded with its first call:
// zod and the contract stay out of what a page downloads before the box is interactive.
import { z } from 'zod';
import { channel, initQuestionResult, stopResult, toolGroup } from '../contract/channel';
import { paged } from '../contract/envelope';
import { checkFolderResult, kbDocument, kbFolder, uploadResult } from '../contract/knowledge';
import { onlineStatus } from '../contract/online';

/** The calls the question box makes, by name. */
export const schemas = {
  tools: z.array(toolGroup),
  folders: paged(kbFolder),
  document: kbDocument,
  checkFolder: checkFolderResult,
  channel,
  sent: initQuestionResult,
  stopped: stopResult,
  uploaded: uploadResult,
  online: onlineStatus,
};
