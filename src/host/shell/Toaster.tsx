import { useEffect, useRef, useState, type PointerEvent } from 'react';
// Signal reads in render are tracked by useSignals() (no compiler plugin), see README.
import { useSignals } from '@preact/signals-react/runtime';
import { bindToastHotkey, isSwipeDismiss, toastStore, TOAST_HOTKEY, type Toast } from '../../core/toast';
import { Icon } from './Icons';
import { useTranslation } from 'react-i18next';

/** The toast region of the root view (SPEC §2): F8 focuses it; a swipe right dismisses a toast. */
export function Toaster() {
  useSignals();
  const { t } = useTranslation('core');
  const region = useRef<HTMLOListElement>(null);
  const store = toastStore();
  useEffect(() => bindToastHotkey(document, () => region.current), []);
  const visible = store.$toasts.value.filter((toast) => toast.open);
  return (
    <section aria-label={t('notifications_region', { key: TOAST_HOTKEY })} className="toaster">
      <ol ref={region} tabIndex={-1} className="toaster__list">
        {visible.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={() => store.dismiss(toast.id)} />
        ))}
      </ol>
    </section>
  );
}

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: () => void }) {
  const { t: tc } = useTranslation('core');
  const [dx, setDx] = useState(0);
  const start = useRef<number | null>(null);
  const onDown = (e: PointerEvent<HTMLLIElement>) => {
    if ((e.target as HTMLElement).closest('button')) return;
    start.current = e.clientX;
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // A pointer that is no longer active cannot be captured; the swipe still works without it.
    }
  };
  const onMove = (e: PointerEvent<HTMLLIElement>) => {
    if (start.current !== null) setDx(Math.max(0, e.clientX - start.current));
  };
  const onUp = (e: PointerEvent<HTMLLIElement>) => {
    if (start.current === null) return;
    const delta = e.clientX - start.current;
    start.current = null;
    if (isSwipeDismiss(delta)) onDismiss();
    else setDx(0);
  };
  const destructive = toast.variant === 'destructive';
  return (
    <li
      className={`toast${destructive ? ' toast--destructive' : ''}`}
      style={dx ? { transform: `translateX(${dx}px)`, opacity: Math.max(0.3, 1 - dx / 200) } : undefined}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={onUp}
      onPointerCancel={() => { start.current = null; setDx(0); }}
    >
      <div className="toast__body" role={destructive ? 'alert' : 'status'} aria-atomic="true">
        <p className="toast__title">{toast.title}</p>
        {toast.description && <p className="toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="toast__close" aria-label={tc('dismiss')} onClick={onDismiss}>
        <Icon name="close" size={16} />
      </button>
    </li>
  );
}
