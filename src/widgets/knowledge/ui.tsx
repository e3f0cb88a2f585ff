// Small building blocks of <csai-knowledge>: buttons, icons, badges, the modal dialog.
import { useEffect, useRef, useState, type ButtonHTMLAttributes, type ReactNode } from 'react';

type Tone = 'primary' | 'plain' | 'danger' | 'ghost';
const tones: Record<Tone, string> = {
  primary: 'bg-accent text-accent-fg border-accent hover:shadow-md',
  plain: 'bg-surface text-ink border-line hover:border-accent',
  danger: 'bg-surface text-danger border-line hover:border-danger',
  ghost: 'bg-transparent text-ink border-transparent hover:bg-line',
};

/** A button in the element's style. */
export function Button({ tone = 'plain', small, className = '', children, ...rest }: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone; small?: boolean }) {
  return (
    <button
      type="button"
      {...rest}
      className={`inline-flex items-center justify-center gap-1.5 rounded-csai border font-csai cursor-pointer whitespace-nowrap transition-colors disabled:opacity-50 disabled:cursor-not-allowed focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ${small ? 'px-2 py-1 text-xs' : 'px-3 py-1.5 text-sm'} ${tones[tone]} ${className}`}
    >
      {children}
    </button>
  );
}

/** A button that runs an async action and stays disabled until it settles (no double submits). */
export function ActionButton({ action, disabled, ...rest }: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'onClick'> & { tone?: Tone; action: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      {...rest}
      disabled={busy || disabled}
      onClick={() => {
        setBusy(true);
        action().finally(() => setBusy(false));
      }}
    />
  );
}

const paths: Record<string, string> = {
  folder: 'M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z',
  plus: 'M12 5v14M5 12h14',
  upload: 'M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2',
  search: 'M11 19a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm10 2-4.35-4.35',
  share: 'M18 8a3 3 0 1 0-2.8-4M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4',
  doc: 'M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8zM14 3v5h5',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  close: 'M6 6l12 12M18 6 6 18',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM3 12h18M12 3c3 3.5 3 14.5 0 18M12 3c-3 3.5-3 14.5 0 18',
  users: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zm13 10v-2a4 4 0 0 0-3-3.87M16 3.13a4 4 0 0 1 0 7.75',
  atom: 'M12 2.5l8.2 4.75v9.5L12 21.5l-8.2-4.75v-9.5zM12 8.2a3.8 3.8 0 1 0 0 7.6 3.8 3.8 0 0 0 0-7.6z',
};

/** A stroke icon (decorative). */
export function Icon({ name, className = 'w-4 h-4' }: { name: keyof typeof paths; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" className={`shrink-0 ${className}`}>
      <path d={paths[name]} />
    </svg>
  );
}

/** A small label. */
export function Badge({ tone = 'muted', children, part }: { tone?: 'muted' | 'info' | 'success' | 'warning' | 'danger' | 'accent'; children: ReactNode; part?: string }) {
  const colour = { muted: 'text-muted border-line', info: 'text-info border-info', success: 'text-success border-success', warning: 'text-warning border-warning', danger: 'text-danger border-danger', accent: 'text-accent border-accent' }[tone];
  return <span part={part} className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs whitespace-nowrap ${colour}`}>{children}</span>;
}

/**
 * A modal dialog on the native <dialog> (focus kept inside, Escape closes, the page behind is
 * inert), labelled by its title.
 */
export function Modal({ title, closeLabel, onClose, children, footer, part = 'dialog' }: { title: string; closeLabel: string; onClose: () => void; children: ReactNode; footer?: ReactNode; part?: string }) {
  const ref = useRef<HTMLDialogElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  const titleId = useRef(`csai-kb-dialog-${Math.random().toString(36).slice(2)}`).current;
  return (
    <dialog
      ref={ref}
      part={part}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        closeRef.current();
      }}
      className="m-auto w-[calc(100%-2rem)] max-w-lg rounded-csai border border-line bg-surface text-ink p-0 shadow-xl font-csai backdrop:bg-black/40"
    >
      <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
        <h2 id={titleId} className="m-0 text-base font-semibold truncate">{title}</h2>
        <Button tone="ghost" small onClick={() => closeRef.current()} aria-label={closeLabel} data-close>
          <Icon name="close" />
        </Button>
      </div>
      <div className="px-4 py-3 flex flex-col gap-3 max-h-[70vh] overflow-auto">{children}</div>
      {footer && <div className="flex justify-end gap-2 border-t border-line px-4 py-3">{footer}</div>}
    </dialog>
  );
}

/** A text input with its visible label. */
export function Field({ label, value, onChange, error, autoFocus, maxLength, placeholder }: { label: string; value: string; onChange: (v: string) => void; error?: string; autoFocus?: boolean; maxLength?: number; placeholder?: string }) {
  const id = useRef(`csai-kb-field-${Math.random().toString(36).slice(2)}`).current;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      <input
        id={id}
        value={value}
        autoFocus={autoFocus}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-err` : undefined}
        onChange={(e) => onChange(e.target.value)}
        className="rounded-csai border border-line bg-surface text-ink px-3 py-2 text-sm outline-none focus:border-accent"
      />
      {error && <p id={`${id}-err`} role="alert" className="m-0 text-xs text-danger">{error}</p>}
    </div>
  );
}

/** Bytes as 1.2 MB. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export { saveBlob } from '../shared/save-blob';
