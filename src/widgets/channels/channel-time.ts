// When a conversation was last active, as its history row shows it.
import type { TFunction } from 'i18next';
import { relativeTime } from '../../core/i18n';

/** The last-activity time of a history row: a short label and the full date and time. */
export interface ChannelTime {
  /** The last 7 days: relative, in the element's language (SPEC §1: "3小时前", "昨天"); this year: M月D日; earlier: YYYY/M/D. */
  label: string;
  /** Date and time in full, for the tooltip. */
  full: string;
  /** The instant as an ISO string, for `<time datetime>`. */
  iso: string;
}

/** Activity this recent is shown as a relative time. */
export const RELATIVE_WITHIN_MS = 7 * 24 * 3600_000;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a channel's `updated_at` (its last question or rename) in the viewer's time zone
 * relative to `now`; null when the server sent no usable time.
 * @example channelTime(new Date(Date.now() - 3 * 3600_000).toISOString(), t) // → { label: '3小时前', … }
 */
export function channelTime(value: string, t: TFunction, now: Date = new Date()): ChannelTime | null {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) return null;
  const parts = { year: at.getFullYear(), month: at.getMonth() + 1, day: at.getDate(), hh: pad(at.getHours()), mm: pad(at.getMinutes()) };
  const full = t('date_time_full', parts);
  if (Math.abs(now.getTime() - at.getTime()) < RELATIVE_WITHIN_MS) {
    return { label: relativeTime(at, t('relative_locale'), now.getTime()), full, iso: at.toISOString() };
  }
  const label = parts.year === now.getFullYear() ? t('date_this_year', parts) : t('date_other_year', parts);
  return { label, full, iso: at.toISOString() };
}
