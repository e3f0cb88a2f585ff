/** Detail of `csai-error`: what failed, in words a user can read, and a stable code. */
export interface CsaiErrorDetail {
  /** Human text (Chinese by default, follows the element's `lang`). */
  message: string;
  /** Stable machine code, e.g. `network_error`, `load_failed`, or the server's envelope code. */
  code: string;
  /** HTTP status when the failure came from a call. */
  status?: number;
}

/** Detail of `csai-status-change`: the server's reachability as `<csai-status>` last saw it. */
export interface CsaiStatusChangeDetail {
  online: boolean;
  /** Server version from the ping, when reachable. */
  version?: string;
}

/**
 * Every event an element dispatches, by name. Elements add their events here; a payload is
 * changed by adding a new event, never by changing an existing one (STYLE).
 */
export interface CsaiEventMap {
  'csai-error': CsaiErrorDetail;
  'csai-status-change': CsaiStatusChangeDetail;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'csai-error': CustomEvent<CsaiErrorDetail>;
    'csai-status-change': CustomEvent<CsaiStatusChangeDetail>;
  }
}

/**
 * Dispatches a typed CustomEvent on the host element that bubbles and crosses shadow roots
 * (composed), so the host page can listen on the element or any ancestor.
 * @example emit(host, 'csai-error', { message: '无法连接服务器', code: 'network_error' })
 */
export function emit<K extends keyof CsaiEventMap>(host: EventTarget, type: K, detail: CsaiEventMap[K]): boolean {
  return host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
}
