import fs from 'node:fs/promises';
import { chunkText } from './chunks';
import type { ParseResult, Progress } from './protocol';

/**
 * A web page saved by page crawl (stored as markdown): the text is the document, cut into
 * passages without pages or boxes (a citation names the document and quotes the passage).
 */
export async function parseMarkdown(file: string, progress: Progress): Promise<ParseResult> {
  const markdown = (await fs.readFile(file, 'utf8')).replace(/\r\n?/g, '\n');
  progress(50, '正在建立网页内容索引');
  const chunks = chunkText(markdown, null);
  return { markdown, pageCount: null, chunks, molecules: [], notes: [] };
}
