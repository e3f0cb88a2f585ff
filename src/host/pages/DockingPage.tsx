import './MoleculeSearchPage.strings';
import { Link } from 'wouter';
import { useT } from '../i18n';
import { CustomElement, usePageTitle } from '../shell/common';

/**
 * /docking: batch docking — a SMILES list or an SDF file docked into one receptor,
 * then the batch's ranked table (`<csai-docking-batch>`). A molecule search's results are docked
 * from /molecules ("dock these"). `?receptor=` fills in the receptor.
 */
export default function DockingPage() {
  const t = useT();
  usePageTitle(t('docking.title'));
  const receptor = new URLSearchParams(typeof location === 'undefined' ? '' : location.search).get('receptor') ?? undefined;
  return (
    <div className="page docking">
      <header className="page__header">
        <h1 className="page__title">{t('docking.title')}</h1>
        <p className="muted">{t('docking.intro')}</p>
        <p className="small">
          <Link href="/molecules">{t('docking.search_link')}</Link>
        </p>
      </header>
      <CustomElement tag="csai-docking-batch" attrs={{ receptor }} />
    </div>
  );
}
