import { toastStore } from '../../core/toast';
import { useSignalValue } from './use-signal';

/**
 * The page's toasts (SPEC §4 toast store) shown inside an element, for foreign pages that have
 * no toast area of their own. On the CSAI site the site's toast area shows them instead.
 */
export function InlineToasts({ label, closeLabel }: { label: string; closeLabel: string }) {
  const store = toastStore();
  const toasts = useSignalValue(store.$toasts).filter((t) => t.open);
  return (
    <div part="toasts" aria-label={label} className="flex flex-col gap-2">
      {toasts.map((t) => (
        <div
          key={t.id}
          part="toast"
          role={t.variant === 'destructive' ? 'alert' : 'status'}
          data-variant={t.variant}
          className={`flex items-start gap-2 rounded-csai border px-3 py-2 text-sm bg-surface ${t.variant === 'destructive' ? 'border-danger text-danger' : 'border-line text-ink'}`}
        >
          <div className="flex-1">
            <div className="font-semibold">{t.title}</div>
            {t.description && <div>{t.description}</div>}
          </div>
          <button type="button" aria-label={closeLabel} className="cursor-pointer bg-transparent border-0 text-muted" onClick={() => store.dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
