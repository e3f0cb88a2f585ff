import { createI18n, relativeTime } from '../../src/core/i18n';
import { expect } from './harness';

describe('i18n', () => {
  it('speaks Chinese by default with the SPEC §1 labels', () => {
    const i18n = createI18n();
    expect(i18n.language).to.equal('zh');
    expect(i18n.t('core:premium')).to.equal('会员计划');
    expect(i18n.t('core:session_expired')).to.equal('您的登录已失效，请先登录');
  });

  it('falls back to English for a key Chinese lacks', () => {
    const i18n = createI18n('zh', { en: { extra: { only_en: 'Only in English' } } });
    expect(i18n.t('extra:only_en')).to.equal('Only in English');
  });

  it('serves English labels when asked for English', () => {
    const i18n = createI18n('en');
    expect(i18n.t('core:premium')).to.equal('premium');
    expect(i18n.t('core:upgrade_now')).to.equal('Upgrade Now');
  });

  it('shows relative times in Chinese', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(relativeTime(now - 3 * 3600_000, 'zh', now)).to.equal('3小时前');
    expect(relativeTime(now - 24 * 3600_000, 'zh', now)).to.equal('昨天');
    expect(relativeTime('not a date', 'zh', now)).to.equal('');
  });
});
