import { signal, type ReadonlySignal } from '@preact/signals-core';

/** SPEC §9: toasts held at once. */
export const TOAST_LIMIT = 1;
/** SPEC §9: how long a toast shows before it dismisses itself, in ms. */
export const TOAST_DURATION = 5000;
/** SPEC §4/§9: a dismissed toast is removed from the store after this many ms. */
export const TOAST_REMOVE_DELAY = 1_000_000;
/** SPEC §9: a toast is swiped away to the right past this many pixels. */
export const TOAST_SWIPE_THRESHOLD = 50;
/** SPEC §9: the swipe direction. */
export const TOAST_SWIPE_DIRECTION = 'right';
/** SPEC §9: the hotkey that moves focus to the notification region. */
export const TOAST_HOTKEY = 'F8';

/** SPEC §3: the two toast variants. */
export type ToastVariant = 'default' | 'destructive';

/** What a caller gives to show a toast. */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Display time in ms; defaults to {@link TOAST_DURATION}. */
  duration?: number;
}

/** A toast in the store; `open` turns false when it is dismissed. */
export interface Toast extends Required<Omit<ToastInput, 'description'>> {
  id: string;
  description?: string;
  open: boolean;
}

/** The handle returned by {@link ToastStore.toast}. */
export interface ToastHandle {
  id: string;
  dismiss(): void;
  update(patch: Partial<ToastInput>): void;
}

/** Timers the store uses; tests pass fake ones. */
export interface ToastClock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: ToastClock = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
};

/**
 * The toast store of SPEC §4: add, update, dismiss, remove; at most {@link TOAST_LIMIT} at once
 * (a new toast pushes the oldest out); auto-dismiss after its duration; removal after
 * {@link TOAST_REMOVE_DELAY} once dismissed.
 * @example const toasts = createToastStore(); toasts.toast({ title: '登出成功' });
 */
export function createToastStore(clock: ToastClock = realClock) {
  const $toasts = signal<Toast[]>([]);
  const removeTimers = new Map<string, unknown>();
  const closeTimers = new Map<string, unknown>();
  let counter = 0;

  const patch = (id: string, change: Partial<Toast>) => {
    $toasts.value = $toasts.value.map((t) => (t.id === id ? { ...t, ...change } : t));
  };
  const clear = (timers: Map<string, unknown>, id: string) => {
    if (timers.has(id)) clock.clearTimeout(timers.get(id));
    timers.delete(id);
  };
  const remove = (id?: string) => {
    const gone = id === undefined ? $toasts.value.map((t) => t.id) : [id];
    for (const g of gone) {
      clear(removeTimers, g);
      clear(closeTimers, g);
    }
    $toasts.value = id === undefined ? [] : $toasts.value.filter((t) => t.id !== id);
  };
  const dismiss = (id?: string) => {
    const targets = $toasts.value.filter((t) => (id === undefined || t.id === id) && t.open);
    for (const t of targets) {
      clear(closeTimers, t.id);
      if (!removeTimers.has(t.id)) removeTimers.set(t.id, clock.setTimeout(() => remove(t.id), TOAST_REMOVE_DELAY));
    }
    $toasts.value = $toasts.value.map((t) => (targets.includes(t) ? { ...t, open: false } : t));
  };
  const scheduleClose = (id: string, duration: number) => {
    clear(closeTimers, id);
    if (duration > 0 && Number.isFinite(duration)) closeTimers.set(id, clock.setTimeout(() => dismiss(id), duration));
  };

  return {
    /** The toasts held now, newest first. */
    $toasts: $toasts as ReadonlySignal<Toast[]>,
    /** Shows a toast; returns a handle to update or dismiss it. */
    toast(input: ToastInput): ToastHandle {
      const id = `toast-${++counter}`;
      const item: Toast = {
        id,
        title: input.title,
        description: input.description,
        variant: input.variant ?? 'default',
        duration: input.duration ?? TOAST_DURATION,
        open: true,
      };
      const kept = [item, ...$toasts.value].slice(0, TOAST_LIMIT);
      for (const dropped of $toasts.value.filter((t) => !kept.includes(t))) {
        clear(removeTimers, dropped.id);
        clear(closeTimers, dropped.id);
      }
      $toasts.value = kept;
      scheduleClose(id, item.duration);
      return {
        id,
        dismiss: () => dismiss(id),
        update: (change) => {
          patch(id, change);
          if (change.duration !== undefined) scheduleClose(id, change.duration);
        },
      };
    },
    /** Dismisses one toast, or all of them without an id. */
    dismiss,
    /** Removes one toast at once, or all of them without an id. */
    remove,
  };
}
/** A toast store's signal and actions. */
export type ToastStore = ReturnType<typeof createToastStore>;

let pageToasts: ToastStore | undefined;

/** The page's one toast store (shared by the site and every element). */
export function toastStore(): ToastStore {
  return (pageToasts ??= createToastStore());
}

/**
 * Moves focus to the notification region when {@link TOAST_HOTKEY} is pressed.
 * Returns the function that removes the listener.
 */
export function bindToastHotkey(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>, region: () => HTMLElement | null) {
  const onKey = (event: Event) => {
    if (!(event instanceof KeyboardEvent) || event.key !== TOAST_HOTKEY) return;
    const el = region();
    if (!el) return;
    event.preventDefault();
    el.focus();
  };
  target.addEventListener('keydown', onKey);
  return () => target.removeEventListener('keydown', onKey);
}

/** Whether a horizontal drag of `deltaX` pixels dismisses a toast (SPEC §9: right, past 50). */
export function isSwipeDismiss(deltaX: number): boolean {
  return deltaX > TOAST_SWIPE_THRESHOLD;
}
