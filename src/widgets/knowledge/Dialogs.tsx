// The dialogs of <csai-knowledge>: folder name (create, rename), confirm (delete), share, and
// choose a target folder (move, copy, add to knowledge base).
import { useEffect, useMemo, useState } from 'react';
import type { TFunction } from 'i18next';
import { createFolderBody, type KbFolder } from '../../contract/knowledge';
import { ApiError } from '../../core/api';
import type { Department, PersonSearch, ShareRecord } from '../../core/knowledge-api';
import type { KnowledgeModel } from '../../core/knowledge-model';
import { ActionButton, Badge, Button, Field, Icon, Modal } from './ui';

/** Create or rename: the name is checked with the contract's rule before it is sent. */
export function FolderNameDialog({ t, title, initial, submitLabel, onSubmit, onClose }: {
  t: TFunction;
  title: string;
  initial: string;
  submitLabel: string;
  onSubmit: (name: string) => Promise<void>;
  onClose: () => void;
}) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const checked = createFolderBody.shape.name.safeParse(name);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    try {
      await onSubmit(checked.data);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('try_later'));
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      closeLabel={t('close')}
      onClose={onClose}
      part="dialog folder-dialog"
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button tone="primary" disabled={busy} onClick={() => void submit()}>{submitLabel}</Button>
        </>
      }
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={t('folder_name')} value={name} onChange={(v) => { setName(v); setError(undefined); }} error={error} autoFocus maxLength={100} />
      </form>
    </Modal>
  );
}

/** A yes/no question before something that cannot be undone. */
export function ConfirmDialog({ t, title, text, confirmLabel, onConfirm, onClose }: {
  t: TFunction;
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <Modal
      title={title}
      closeLabel={t('close')}
      onClose={onClose}
      part="dialog confirm-dialog"
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <ActionButton tone="danger" action={onConfirm}>{confirmLabel}</ActionButton>
        </>
      }
    >
      <p className="m-0 text-sm leading-relaxed">{text}</p>
    </Modal>
  );
}

type Target = { kind: 'user' | 'department'; id: string; name: string; detail: string };

/**
 * Share a folder or a document with people and departments found by the person/department
 * search (GET search_person_department, GET departments when nothing is typed), and stop a share.
 */
export function ShareDialog({ t, model, resource, onClose }: {
  t: TFunction;
  model: KnowledgeModel;
  resource: { type: 'folder' | 'doc'; id: string; name: string };
  onClose: () => void;
}) {
  const [keyword, setKeyword] = useState('');
  const [found, setFound] = useState<PersonSearch | null>(null);
  const [departments, setDepartments] = useState<Department[] | null>(null);
  const [chosen, setChosen] = useState<Target[]>([]);
  const [records, setRecords] = useState<ShareRecord[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const loadRecords = () => model.shareRecordsOf(resource).then(setRecords, () => setRecords([]));
  useEffect(() => {
    void loadRecords();
    model.departments().then(setDepartments, () => setDepartments([]));
  }, [resource.id]);

  useEffect(() => {
    const word = keyword.trim();
    if (!word) {
      setFound(null);
      return;
    }
    const abort = new AbortController();
    const timer = setTimeout(() => {
      model.searchPeople(word, abort.signal).then(
        (r) => !abort.signal.aborted && setFound(r),
        () => !abort.signal.aborted && setFound({ people: [], departments: [] }),
      );
    }, 250);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [keyword, model]);

  const options: Target[] = useMemo(() => {
    const people = (found?.people ?? []).map((p): Target => ({ kind: 'user', id: p.id, name: p.name || p.show_name, detail: [p.show_name, p.department_name].filter(Boolean).join(' · ') }));
    const depts = (found ? found.departments : departments ?? []).map((d): Target => ({ kind: 'department', id: d.id, name: d.name, detail: t('member_count', { count: d.member_count }) }));
    return [...people, ...depts];
  }, [found, departments, t]);

  const isChosen = (o: Target) => chosen.some((c) => c.kind === o.kind && c.id === o.id);
  const toggle = (o: Target) => setChosen((list) => (isChosen(o) ? list.filter((c) => !(c.kind === o.kind && c.id === o.id)) : [...list, o]));

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    const users = chosen.filter((c) => c.kind === 'user').map((c) => c.id);
    const depts = chosen.filter((c) => c.kind === 'department').map((c) => c.id);
    try {
      await model.share(resource, users, depts);
      setChosen([]);
      setKeyword('');
      await loadRecords();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('try_later'));
    } finally {
      setBusy(false);
    }
  };
  const cancel = async (record: ShareRecord) => {
    try {
      await model.cancelShare(record.share_id);
      await loadRecords();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('try_later'));
    }
  };

  return (
    <Modal
      title={t('share_title', { name: resource.name })}
      closeLabel={t('close')}
      onClose={onClose}
      part="dialog share-dialog"
      footer={
        <>
          <Button onClick={onClose}>{t('close')}</Button>
          <Button tone="primary" disabled={busy || !chosen.length} onClick={() => void submit()}>{t('share_submit')}</Button>
        </>
      }
    >
      <Field label={t('share_search')} value={keyword} onChange={setKeyword} autoFocus maxLength={50} />
      {chosen.length > 0 && (
        <div className="flex flex-wrap gap-1.5" aria-label={t('share_selected')} role="group">
          {chosen.map((c) => (
            <span key={`${c.kind}:${c.id}`} className="inline-flex items-center gap-1 rounded-full bg-line px-2 py-0.5 text-xs">
              <Icon name={c.kind === 'user' ? 'users' : 'folder'} className="w-3 h-3" />
              {c.name}
              <button type="button" aria-label={t('remove_target', { name: c.name })} onClick={() => toggle(c)} className="ml-0.5 cursor-pointer border-0 bg-transparent p-0 text-muted hover:text-danger">
                <Icon name="close" className="w-3 h-3" />
              </button>
            </span>
          ))}
        </div>
      )}
      <ul className="m-0 p-0 list-none flex flex-col max-h-56 overflow-auto rounded-csai border border-line" part="share-options">
        {options.length === 0 && (
          <li className="px-3 py-2 text-sm text-muted">{found ? t('share_nothing_found') : departments === null ? t('loading') : t('share_hint')}</li>
        )}
        {options.map((o) => (
          <li key={`${o.kind}:${o.id}`} className="border-b border-line last:border-b-0">
            <label className="flex items-center gap-2 px-3 py-2 text-sm cursor-pointer hover:bg-line">
              <input type="checkbox" checked={isChosen(o)} onChange={() => toggle(o)} />
              <span className="font-medium">{o.name}</span>
              <span className="text-xs text-muted truncate">{o.kind === 'user' ? t('share_people') : t('share_departments')} · {o.detail}</span>
            </label>
          </li>
        ))}
      </ul>
      {error && <p role="alert" className="m-0 text-sm text-danger">{error}</p>}
      <section aria-label={t('share_records')} className="flex flex-col gap-1.5">
        <h3 className="m-0 text-sm font-semibold">{t('share_records')}</h3>
        {records !== null && records.length === 0 && <p className="m-0 text-sm text-muted">{t('share_none')}</p>}
        {records?.map((r) => (
          <div key={r.share_id} className="flex items-center justify-between gap-2 text-sm" part="share-record">
            <span className="flex items-center gap-1.5 min-w-0">
              <Badge>{r.target_type === 'user' ? t('share_people') : t('share_departments')}</Badge>
              <span className="truncate">{r.target_name}</span>
            </span>
            <Button small tone="danger" onClick={() => void cancel(r)}>{t('share_cancel')}</Button>
          </div>
        ))}
      </section>
    </Modal>
  );
}

/** Choose one of your folders as the target of a move, a copy or an add to knowledge base. */
export function TargetFolderDialog({ t, title, folders, excludeId, submitLabel, onSubmit, onClose }: {
  t: TFunction;
  title: string;
  folders: KbFolder[] | null;
  excludeId?: string;
  submitLabel: string;
  onSubmit: (folderId: string) => Promise<void>;
  onClose: () => void;
}) {
  const [chosen, setChosen] = useState('');
  const choices = (folders ?? []).filter((f) => f.id !== excludeId);
  return (
    <Modal
      title={title}
      closeLabel={t('close')}
      onClose={onClose}
      part="dialog target-dialog"
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <ActionButton tone="primary" disabled={!chosen} action={() => onSubmit(chosen)}>{submitLabel}</ActionButton>
        </>
      }
    >
      <fieldset className="m-0 p-0 border-0 flex flex-col gap-1">
        <legend className="text-sm font-medium mb-1">{t('choose_folder')}</legend>
        {folders === null && <p className="m-0 text-sm text-muted">{t('loading')}</p>}
        {folders !== null && choices.length === 0 && <p className="m-0 text-sm text-muted">{t('no_target')}</p>}
        {choices.map((f) => (
          <label key={f.id} className="flex items-center gap-2 rounded-csai px-2 py-1.5 text-sm cursor-pointer hover:bg-line">
            <input type="radio" name="target" value={f.id} checked={chosen === f.id} onChange={() => setChosen(f.id)} />
            <Icon name="folder" className="w-4 h-4 text-muted" />
            <span className="truncate">{f.name}</span>
            <span className="ml-auto text-xs text-muted">{t('doc_count', { count: f.doc_count })}</span>
          </label>
        ))}
      </fieldset>
    </Modal>
  );
}
