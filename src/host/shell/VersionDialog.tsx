import { Fragment, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import changelog from '../../../CHANGELOG.md?raw';
import { useT } from '../i18n';
import { parseChangelog, releaseLines } from './changelog';
import { Icon } from './Icons';

const releases = parseChangelog(changelog);

/** Renders `code` spans of a changelog line; everything else as text. */
function Inline({ text }: { text: string }) {
  const parts = text.split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) => (p.startsWith('`') && p.endsWith('`') ? <code key={i}>{p.slice(1, -1)}</code> : <Fragment key={i}>{p}</Fragment>))}
    </>
  );
}

/** SPEC §2: the version history dialog, this project's CHANGELOG.md newest first. */
export default function VersionDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const { i18n } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="version-title" onClose={onClose} onClick={(e) => e.target === ref.current && ref.current?.close()}>
      <div className="dialog__panel">
        <header className="dialog__header">
          <h2 id="version-title">{t('versions.title')}</h2>
          <button type="button" className="icon-button" aria-label={t('versions.close')} onClick={() => ref.current?.close()}>
            <Icon name="close" />
          </button>
        </header>
        <div className="dialog__body">
          {releases.length === 0 && <p className="muted">{t('versions.empty')}</p>}
          {releases.map((r) => (
            <section key={r.version} className="release">
              <h3>
                v{r.version} {r.note && <span className="release__note">{/^unreleased$/i.test(r.note) ? t('versions.unreleased') : r.note}</span>}
              </h3>
              <ul>
                {releaseLines(r, i18n.language).map((item, i) => (
                  <li key={i}>
                    <Inline text={item} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </div>
    </dialog>
  );
}
