// One document of the main list: type, title, size, pages or molecules, parse status, and its
// actions (open, download, and a menu: use in a question, translate, add, copy, move, share, delete).
import { useLayoutEffect, useRef, useState } from 'react';
import type { TFunction } from 'i18next';
import type { KbDocument } from '../../contract/knowledge';
import { Badge, Button, formatSize, Icon } from './ui';

/** What the document menu offers. */
export type DocumentAction = 'question' | 'translate' | 'add' | 'move' | 'copy' | 'share' | 'delete';

const typeLabel = (t: TFunction, type: KbDocument['type']) => (type === 1 ? t('type_pdf') : type === 3 ? t('type_image') : type === 5 ? t('type_sdf') : type === 7 ? t('type_web') : t('type_pdb'));
const isMolecule = (doc: KbDocument) => doc.type === 5 || doc.type === 6;

/** The menu's entries for a document, in order. */
export function documentActions(t: TFunction, doc: KbDocument): { key: DocumentAction; label: string }[] {
  const parsed = doc.parseStatus === 2;
  const all: { key: DocumentAction; label: string; show: boolean }[] = [
    // Into the question box's files (a copy in my question files, SPEC §7 es_copy_doc_to_question_channel).
    { key: 'question', label: t('use_in_question'), show: doc.parseStatus !== 3 },
    // Text documents only: molecule files have no prose to translate.
    { key: 'translate', label: t('translate'), show: parsed && !isMolecule(doc) },
    // SPEC §4: a parsed document offers to be added to a knowledge base.
    { key: 'add', label: t('add_to_kb'), show: parsed },
    { key: 'copy', label: t('copy'), show: true },
    { key: 'move', label: t('move'), show: doc.is_owner },
    { key: 'share', label: t('share'), show: doc.is_owner },
    { key: 'delete', label: t('delete'), show: doc.is_owner },
  ];
  return all.filter((a) => a.show).map(({ key, label }) => ({ key, label }));
}

export function DocumentRow({ t, doc, showOwner, molecules, onOpen, onDownload, onAction }: {
  t: TFunction;
  doc: KbDocument;
  showOwner: boolean;
  molecules: number | undefined;
  onOpen: () => void;
  onDownload: () => void;
  onAction: (action: DocumentAction) => void;
}) {
  const [menu, setMenu] = useState(false);
  const status =
    doc.parseStatus === 1 ? <Badge tone="warning" part="parse-status">{t('parsing', { percent: doc.parse_progress })}</Badge>
    : doc.parseStatus === 2 ? <Badge tone="success" part="parse-status">{t('parsed')}</Badge>
    : <Badge tone="danger" part="parse-status">{t('parse_failed')}</Badge>;
  const lastText = doc.parseStatus === 3 ? doc.progress_texts[doc.progress_texts.length - 1] : undefined;
  return (
    <li part="document" data-doc-id={doc.docId} data-parse-status={doc.parseStatus} className="flex flex-col gap-2 border-b border-line px-3 py-3 last:border-b-0 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className={`mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-csai border border-line ${isMolecule(doc) ? 'text-accent' : 'text-muted'}`}>
          <Icon name={isMolecule(doc) ? 'atom' : 'doc'} />
        </span>
        <div className="min-w-0 flex-1">
          <button type="button" onClick={onOpen} part="document-title" className="block max-w-full truncate border-0 bg-transparent p-0 text-left text-sm font-medium text-ink cursor-pointer font-csai hover:text-accent hover:underline">
            {doc.title}
          </button>
          <p className="m-0 mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
            <span>{typeLabel(t, doc.type)}</span>
            <span>{formatSize(doc.size)}</span>
            {doc.page_count !== null && <span>{t('pages', { count: doc.page_count })}</span>}
            {molecules !== undefined && <span part="molecule-count">{t('molecules', { count: molecules })}</span>}
            {showOwner && <span>{t('owner', { name: doc.owner_name })}</span>}
            {status}
          </p>
          {lastText && <p className="m-0 mt-1 text-xs text-danger">{lastText}</p>}
        </div>
      </div>
      <div className="relative flex shrink-0 items-center gap-1.5 pl-11 sm:pl-0">
        <Button small onClick={onOpen}>{isMolecule(doc) ? t('view_3d') : t('open')}</Button>
        <Button small onClick={onDownload}>{t('download')}</Button>
        <Button small tone="ghost" aria-label={t('more_actions', { title: doc.title })} aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu((m) => !m)}>
          <Icon name="more" />
        </Button>
        {menu && (
          <DocumentMenu
            label={t('more_actions', { title: doc.title })}
            actions={documentActions(t, doc)}
            onClose={() => setMenu(false)}
            onAction={(a) => {
              setMenu(false);
              onAction(a);
            }}
          />
        )}
      </div>
    </li>
  );
}

/** The more-actions menu: focus on its first entry, arrows move, Escape or leaving closes it. */
function DocumentMenu({ label, actions, onClose, onAction }: {
  label: string;
  actions: { key: DocumentAction; label: string }[];
  onClose: () => void;
  onAction: (action: DocumentAction) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button')?.focus();
  }, []);
  return (
    <div
      ref={ref}
      role="menu"
      part="document-menu"
      aria-label={label}
      onKeyDown={(e) => {
        const items = [...(ref.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
        const at = items.findIndex((b) => b === e.target);
        if (e.key === 'Escape') onClose();
        else if (e.key === 'ArrowDown') items[(at + 1) % items.length]?.focus();
        else if (e.key === 'ArrowUp') items[(at - 1 + items.length) % items.length]?.focus();
        else return;
        e.preventDefault();
      }}
      onBlur={(e) => {
        const next = e.relatedTarget;
        if (!(next instanceof Node) || !e.currentTarget.contains(next)) onClose();
      }}
      className="absolute right-0 top-full z-10 mt-1 flex min-w-[9rem] flex-col rounded-csai border border-line bg-surface py-1 shadow-lg"
    >
      {actions.map((a) => (
        <button
          key={a.key}
          type="button"
          role="menuitem"
          data-action={a.key}
          onClick={() => onAction(a.key)}
          className={`border-0 bg-transparent px-3 py-1.5 text-left text-sm cursor-pointer font-csai hover:bg-line focus:bg-line outline-none ${a.key === 'delete' ? 'text-danger' : 'text-ink'}`}
        >
          {a.label}
        </button>
      ))}
    </div>
  );
}
