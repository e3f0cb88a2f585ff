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

/** Detail of `csai-submitted`: a question was sent; its answer streams in the channel. */
export interface CsaiSubmittedDetail {
  channelId: string;
  questionId: string;
}

/**
 * Detail of `csai-navigate`: the element wants to open a page of the product (a conversation, the
 * document viewer at a cited page). `path` is site-relative; `url` is absolute on the CSAI server.
 * The event is cancelable: a page that routes itself calls `preventDefault()`, else the element
 * navigates.
 */
export interface CsaiNavigateDetail {
  path: string;
  url: string;
}

/** Detail of `csai-chem-smiles`: the structure the chemical editor returned, as SMILES. */
export interface CsaiChemSmilesDetail {
  smiles: string;
}

/**
 * Every event an element dispatches, by name. Elements add their events here; a payload is
 * changed by adding a new event, never by changing an existing one (STYLE).
 */
export interface CsaiEventMap {
  'csai-error': CsaiErrorDetail;
  'csai-status-change': CsaiStatusChangeDetail;
  'csai-submitted': CsaiSubmittedDetail;
  'csai-navigate': CsaiNavigateDetail;
  'csai-chem-smiles': CsaiChemSmilesDetail;
}

declare global {
  interface GlobalEventHandlersEventMap {
    'csai-error': CustomEvent<CsaiErrorDetail>;
    'csai-status-change': CustomEvent<CsaiStatusChangeDetail>;
    'csai-submitted': CustomEvent<CsaiSubmittedDetail>;
    'csai-navigate': CustomEvent<CsaiNavigateDetail>;
    'csai-chem-smiles': CustomEvent<CsaiChemSmilesDetail>;
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

/**
 * Asks the page to go to a product page: dispatches the cancelable `csai-navigate`; when no
 * listener prevents it, `fallback` runs (the element navigates itself).
 */
export function requestNavigation(host: EventTarget, detail: CsaiNavigateDetail, fallback: () => void): void {
  const event = new CustomEvent('csai-navigate', { detail, bubbles: true, composed: true, cancelable: true });
  if (host.dispatchEvent(event)) fallback();
}
