import { createCsaiElement } from '../shared/element';
import { defineOnce } from '../shared/define-once';

/** The element's own attributes, beside the common ones (theme, lang, api-base, accent, radius). */
export const channelsAttributes = { channelId: 'string', closeSider: 'string' } as const;

/**
 * Conversation history and one conversation (SPEC §2 /channels): the history list with search,
 * rename, delete and pages; each question with its collapsible thinking, notices, tool cards and the
 * streamed answer (markdown, GFM tables, code, KaTeX formulas, SMILES drawn by
 * `<csai-molecule>`), sanitised in one render path; citation chips opening the document viewer
 * at the cited page; like, dislike, copy, delete, stop; and follow-up questions through an
 * embedded `<csai-ask>`. Answers stream over SSE and continue after a reload or in a second tab.
 *
 * @tagname csai-channels
 * @summary Conversation history and the streamed, cited answers.
 *
 * @attr {string} api-base - Origin of the CSAI server; the page's own origin when absent.
 * @attr {"light" | "dark"} theme - Colour scheme; `light` when absent.
 * @attr {string} lang - Language of the texts: `zh` (default) or `en`.
 * @attr {string} accent - Accent colour (any CSS colour); overrides `--csai-accent` for this element.
 * @attr {string} radius - Corner radius (any CSS length); overrides `--csai-radius` for this element.
 * @attr {string} channel-id - The conversation to show.
 * @attr {string} close-sider - `"true"`: the history list starts collapsed.
 *
 * @fires {CustomEvent<CsaiNavigateDetail>} csai-navigate - A citation or a conversation is opened: `{ path, url }` (e.g. `/pdf_viewer?docId=…&page=…&bbox=…`); cancelable, else the element navigates. Bubbles, composed.
 * @fires {CustomEvent<CsaiSubmittedDetail>} csai-submitted - A follow-up question was sent (from the embedded `<csai-ask>`). Bubbles, composed.
 * @fires {CustomEvent<CsaiErrorDetail>} csai-error - The element's code failed to load (`load_failed`) or render (`render_failed`), or a follow-up failed. Bubbles, composed.
 *
 * @csspart root - The themed wrapper of everything inside.
 * @csspart base - The two columns.
 * @csspart history - The history list column: `search`, `channels` (each `channel`, with `channel-name`, `channel-time` (last activity: the last 7 days relative, e.g. 3小时前 or 昨天; this year M月D日; else YYYY/M/D), `rename`, `rename-input`, `delete-channel`, `confirm`), `empty`, `pagination`.
 * @csspart conversation - The conversation column: `toggle-history`, `title`, `placeholder`, `channel-docs` (the documents the conversation's questions used, each `channel-doc`, opening the viewer; `channel-docs-error` when they cannot be read).
 * @csspart question - One question (`data-status` queued, running, done, stopped or failed) with `question-text`, `queued`, `running`, `thinking`, `research` (deep research: `research-progress`, `research-bar`, `research-current`, `research-plan` with each `research-sub-question` and its `data-state` done, current or pending, `research-steps` with each `research-step`), `steps` (notices, each `step`), `tools` (each `tool-card` with `data-tool` and `data-state` running, ok or failed: its card, or `tool-text`; `tool-error` for a failed call), `answer`, `citation`, `stopped`, `failed`, `actions` (`stop`, `like`, `dislike`, `copy`, `delete`, `confirm`).
 * @csspart toasts - Notifications on foreign pages; each is `toast`.
 * @csspart error - The notice shown instead of the content when the element failed to render.
 *
 * @cssprop --csai-accent - Accent colour. Default `#2563eb`.
 * @cssprop --csai-radius - Corner radius. Default `0.5rem`.
 * @cssprop --csai-font - Font family.
 * @cssprop --csai-surface - Background in the light theme (`--csai-surface-dark` in the dark one).
 * @cssprop --csai-ink - Text colour in the light theme (`--csai-ink-dark` in the dark one).
 */
export class CsaiChannelsElement extends createCsaiElement(channelsAttributes, () => import('./Channels')) {}

defineOnce('csai-channels', CsaiChannelsElement);

declare global {
  interface HTMLElementTagNameMap {
    'csai-channels': CsaiChannelsElement;
  }
}
