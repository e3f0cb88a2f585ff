// Reads the answers prefetch.ts started, with the same checks and errors as getJson
// (fetch-json.ts) and fetchBlob (fetch-api.ts) give the view when it asks itself.
import { z } from 'zod';
import { failure, ok } from '../../contract/envelope';
import { kbDocument, type KbDocument } from '../../contract/knowledge';
import { WidgetFetchError } from '../shared/fetch-json';
import type { PDFDocumentProxy } from './pdfjs';
import type { Prefetched } from './prefetch';

const envelope = ok(z.unknown());

async function answer(res: Promise<Response>): Promise<Response> {
  try {
    return await res;
  } catch (error) {
    throw new WidgetFetchError('network_error', undefined, String(error));
  }
}

const failed = (body: unknown, status: number, path: string) => {
  const fail = failure.safeParse(body);
  return new WidgetFetchError(fail.success ? fail.data.code : 'unexpected_response', status, fail.success ? fail.data.message : `${path}: HTTP ${status}`);
};

/** The document's record (null when there was no doc-id to ask about). */
export async function prefetchedRecord(early: Prefetched): Promise<KbDocument | null> {
  if (!early.record) return null;
  const res = await answer(early.record);
  const path = early.recordPath;
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new WidgetFetchError('unexpected_response', res.status, `${path}: not JSON`);
  }
  if (!res.ok) throw failed(body, res.status, path);
  const wrapped = envelope.safeParse(body);
  const parsed = wrapped.success ? kbDocument.safeParse(wrapped.data.data) : wrapped;
  if (!parsed.success) throw new WidgetFetchError('unexpected_response', res.status, `${path}: ${parsed.error.message}`);
  return parsed.data;
}

/** The opened PDF, or the server's message when the file could not be had. */
export async function prefetchedPdf(early: Prefetched): Promise<PDFDocumentProxy> {
  const res = await answer(early.bytes);
  if (!res.ok) throw failed(await res.json().catch(() => undefined), res.status, early.path);
  return early.pdf;
}
