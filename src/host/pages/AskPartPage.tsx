import { useLocation } from 'wouter';
import { useT } from '../i18n';
import { CustomElement, usePageTitle } from '../shell/common';

/** /ask/ask_main and /ask/ask_button (default layout): parts of the question area. */
export default function AskPartPage() {
  const t = useT();
  usePageTitle(t('ask.title'));
  const [location] = useLocation();
  return (
    <div className="page">
      <h1 className="visually-hidden">{t('ask.title')}</h1>
      <CustomElement tag="csai-ask" pending={t('home.ask_pending')} attrs={{ part: location.endsWith('ask_button') ? 'button' : 'main' }} />
    </div>
  );
}
