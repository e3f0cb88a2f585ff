// When a conversation was last active, as its history row shows it.
import type { TFunction } from 'i18next';

/** The last-activity time of a history row: a short label and the full date and time. */
export interface ChannelTime {
  /** Today: HH:mm; this year: M月D日; earlier: YYYY/M/D (in the element's language). */
  label: string;
  /** Date and time in full, for the tooltip. */
  full: string;
  /** The instant as an ISO string, for `<time datetime>`. */
  iso: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * Formats a channel's `updated_at` (its last question or rename) in the viewer's time zone
 * relative to `now`; null when the server sent no usable time.
 * @example channelTime('2026-11-23T01:05:00Z', t, now) // → { label: '09:05', … } in UTC+8 on that day
 */
export function channelTime(value: string, t: TFunction, now: Date = new Date()): ChannelTime | null {
  const at = new Date(value);
  if (!value || Number.isNaN(at.getTime())) return null;
  const parts = { year: at.getFullYear(), month: at.getMonth() + 1, day: at.getDate(), hh: pad(at.getHours()), mm: pad(at.getMinutes()) };
  const sameYear = parts.year === now.getFullYear();
  const today = sameYear && at.getMonth() === now.getMonth() && parts.day === now.getDate();
  const label = today ? t('time_today', parts) : sameYear ? t('date_this_year', parts) : t('date_other_year', parts);
  return { label, full: t('date_time_full', parts), iso: at.toISOString() };
}
