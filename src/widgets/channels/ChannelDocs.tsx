// The documents a conversation used (GET channel/channel_docs/{id}), shown above its questions:
// each opens in the viewer. Reloaded after a follow-up question (which may bring new files).
import type { KbDocument } from '../../contract/knowledge';
import type { ChannelDocumentsModel } from '../../core/knowledge-extras';
import { viewerPath } from '../../core/knowledge-model';
import { useHost, useT } from '../shared/host-context';
import { openProductPage } from '../shared/site';
import { useSignalValue } from '../shared/use-signal';

const kind = (doc: KbDocument) => (doc.type === 1 ? 'PDF' : doc.type === 3 ? 'IMG' : doc.type === 5 ? 'SDF' : doc.type === 7 ? 'WEB' : 'PDB');

/** The open conversation's documents (the conversations model loads them). */
export function ChannelDocs({ model }: { model: ChannelDocumentsModel }) {
  const { host, apiOrigin } = useHost();
  const t = useT('channels');
  const docs = useSignalValue(model.$docs);
  // Nothing to say while loading or for a conversation without documents.
  if (docs === null || (Array.isArray(docs) && docs.length === 0)) return null;
  if (docs === 'error') return <p part="channel-docs-error" className="m-0 text-xs text-muted">{t('channel_docs_failed')}</p>;
  return (
    <details part="channel-docs" className="rounded-csai border border-line px-3 py-2 text-sm">
      <summary className="cursor-pointer text-muted">{t('channel_docs', { count: docs.length })}</summary>
      <ul className="m-0 mt-2 p-0 list-none flex flex-col gap-1">
        {docs.map((doc) => (
          <li key={doc.docId} part="channel-doc" data-doc-id={doc.docId} className="flex items-center gap-2 min-w-0">
            <span className="shrink-0 rounded-csai border border-line px-1 text-xs text-muted">{kind(doc)}</span>
            <button
              type="button"
              className="min-w-0 truncate border-0 bg-transparent p-0 text-left text-ink cursor-pointer hover:text-accent hover:underline"
              onClick={() => openProductPage(host, apiOrigin, viewerPath(doc))}
            >
              {doc.title}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
