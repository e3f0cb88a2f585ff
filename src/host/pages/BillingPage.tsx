import './BillingPage.strings';
import { useTranslation } from 'react-i18next';
import { useT } from '../i18n';
import { usePageTitle } from '../shell/common';
import { Icon } from '../shell/Icons';

/** /billing: the current plan, honestly (free; no payment flow exists). */
export default function BillingPage() {
  const t = useT();
  const { t: tc } = useTranslation('core');
  usePageTitle(t('billing.title'));
  return (
    <div className="page">
      <header className="page__header">
        <p className="eyebrow">{tc('premium')}</p>
        <h1 className="page__title">{t('billing.title')}</h1>
      </header>
      <section className="card plan">
        <div className="plan__head">
          <div>
            <p className="muted">{t('billing.current')}</p>
            <h2 className="plan__name">{t('billing.free')}</h2>
          </div>
          <span className="badge badge--accent">{t('billing.current')}</span>
        </div>
        <p>{t('billing.free_text')}</p>
        <h3 className="plan__subtitle">{t('billing.included')}</h3>
        <ul className="checklist">
          {[0, 1, 2, 3].map((i) => (
            <li key={i}>
              <Icon name="check" size={16} />
              {t(`billing.items.${i}`)}
            </li>
          ))}
        </ul>
        <div className="plan__foot">
          <button type="button" className="button button--primary" disabled aria-describedby="upgrade-note">
            {tc('upgrade_now')}
          </button>
          <p id="upgrade-note" className="muted small">{t('billing.upgrade_note')}</p>
        </div>
      </section>
    </div>
  );
}
