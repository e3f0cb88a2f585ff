import { describe, expect, it } from 'vitest';
import { channelTime } from '../../../src/widgets/channels/channel-time';
import { channelsStrings } from '../../../src/widgets/channels/channels.strings';
import { addStrings, translator } from '../../../src/widgets/shared/i18n';

addStrings('channels', channelsStrings);
const zh = translator('channels', 'zh');
const en = translator('channels', 'en');
// Local times (the viewer's zone), so the test holds in any time zone.
const now = new Date(2026, 10, 23, 14, 30);
const at = (...args: [number, number, number, number, number]) => new Date(...args).toISOString();

describe('the last-activity time of a history row', () => {
  it('the last 7 days show a relative time in Chinese (SPEC §1)', () => {
    expect(channelTime(at(2026, 10, 23, 14, 30), zh, now)?.label).toBe('现在');
    expect(channelTime(at(2026, 10, 23, 14, 25), zh, now)?.label).toBe('5分钟前');
    expect(channelTime(at(2026, 10, 23, 9, 5), zh, now)?.label).toBe('5小时前');
    expect(channelTime(at(2026, 10, 22, 10, 0), zh, now)?.label).toBe('昨天');
    expect(channelTime(at(2026, 10, 21, 10, 0), zh, now)?.label).toBe('前天');
    expect(channelTime(at(2026, 10, 18, 10, 0), zh, now)?.label).toBe('5天前');
  });

  it('earlier this year shows M月D日', () => {
    expect(channelTime(at(2026, 10, 15, 23, 59), zh, now)?.label).toBe('11月15日');
    expect(channelTime(at(2026, 0, 3, 8, 0), zh, now)?.label).toBe('1月3日');
  });

  it('another year shows YYYY/M/D', () => {
    expect(channelTime(at(2025, 11, 31, 23, 0), zh, now)?.label).toBe('2025/12/31');
  });

  it('gives the full date and time for the tooltip and the ISO instant for <time>', () => {
    const iso = at(2025, 2, 4, 7, 8);
    expect(channelTime(iso, zh, now)).toEqual({ label: '2025/3/4', full: '最近活动：2025年3月4日 07:08', iso });
    expect(channelTime(at(2026, 10, 23, 9, 5), zh, now)?.full).toBe('最近活动：2026年11月23日 09:05');
  });

  it('follows the element language', () => {
    expect(channelTime(at(2026, 2, 4, 7, 8), en, now)).toMatchObject({ label: '3/4', full: 'Last active 2026/3/4 07:08' });
    expect(channelTime(at(2026, 10, 23, 11, 30), en, now)?.label).toBe('3 hours ago');
    expect(channelTime(at(2026, 10, 22, 11, 30), en, now)?.label).toBe('yesterday');
  });

  it('shows nothing for a missing or malformed time', () => {
    expect(channelTime('', zh, now)).toBeNull();
    expect(channelTime('not a date', zh, now)).toBeNull();
  });
});
