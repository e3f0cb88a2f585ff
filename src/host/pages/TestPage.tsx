import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { Diagnostics } from '../../contract/diagnostics';
import { ApiError } from '../../core/api';
import { createGeneralApi } from '../../core/general-api';
import { api } from '../../core/page';
import { useT } from '../i18n';
import { usePageTitle } from '../shell/common';
import { Icon } from '../shell/Icons';

/** /test: what the server runs with (version, answer engine, storage, optional services). */
export default function TestPage() {
  const t = useT();
  usePageTitle(t('test.title'));
  const [info, setInfo] = useState<Diagnostics | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    createGeneralApi(api())
      .diagnostics({ signal: controller.signal })
      .then(setInfo)
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.code === 'aborted') return;
        setError(err instanceof Error ? err.message : String(err));
      });
    return () => controller.abort();
  }, []);
  const yesNo = (v: boolean) => (
    <span className={`pill ${v ? 'pill--ok' : 'pill--off'}`}>{v ? t('test.configured') : t('test.not_configured')}</span>
  );
  return (
    <main className="page page--standalone" id="main">
      <header className="page__header">
        <Link href="/" className="button button--ghost">
          <Icon name="back" size={16} />
          {t('errors.home')}
        </Link>
        <h1 className="page__title">{t('test.title')}</h1>
        <p className="muted">{t('test.subtitle')}</p>
      </header>
      {error && <p className="form-error" role="alert">{t('test.load_failed', { message: error })}</p>}
      {!info && !error && <p className="muted" role="status">{t('test.loading')}</p>}
      {info && (
        <div className="grid-2">
          <section className="card">
            <h2 className="card__title">{t('test.server')}</h2>
            <dl className="facts">
              <dt>{t('test.version')}</dt>
              <dd>{info.version}</dd>
              <dt>{t('test.engine')}</dt>
              <dd>{info.answer_engine === 'openai' ? t('test.engine_openai') : t('test.engine_local')}</dd>
              {info.llm_model && (<><dt>{t('test.model')}</dt><dd>{info.llm_model}</dd></>)}
              {info.llm_reasoning_model && (<><dt>{t('test.reasoning_model')}</dt><dd>{info.llm_reasoning_model}</dd></>)}
              <dt>{t('test.ocr')}</dt>
              <dd data-ocr-engine={info.ocr_engine}>
                {t(`test.ocr_${info.ocr_engine}`)}
                {info.ocr_detail && (<><br /><small className="muted">{info.ocr_detail}</small></>)}
              </dd>
              <dt>{t('test.structures')}</dt>
              <dd data-structure-recognition={info.structure_recognition.osra ? 'osra' : 'none'}>
                {/* What to install is for administrators; others are told to ask theirs. */}
                {info.structure_recognition.osra ? t('test.structures_osra', { version: info.structure_recognition.osra }) : t(info.storage.data_dir !== null ? 'test.structures_none' : 'test.structures_none_user')}
              </dd>
              <dt>{t('test.storage')}</dt>
              <dd>{info.storage.kind === 'postgresql' ? 'PostgreSQL' : 'SQLite'}</dd>
              {info.storage.data_dir !== null && (<><dt>{t('test.data_dir')}</dt><dd><code>{info.storage.data_dir}</code></dd></>)}
              <dt>{t('test.node')}</dt>
              <dd>{info.node_version}</dd>
              <dt>{t('test.uptime')}</dt>
              <dd>{t('test.uptime_value', { minutes: Math.floor(info.uptime_seconds / 60) })}</dd>
            </dl>
          </section>
          <section className="card">
            <h2 className="card__title">{t('test.services')}</h2>
            <dl className="facts">
              <dt>{t('test.llm')}</dt>
              <dd>{yesNo(info.services.llm)}</dd>
              <dt>{t('test.embeddings')}</dt>
              <dd>{yesNo(info.services.embeddings)}{info.embedding_model && <> {info.embedding_model}</>}</dd>
              <dt>{t('test.smtp')}</dt>
              <dd>{yesNo(info.services.smtp)}</dd>
              <dt>{t('test.dev_outbox')}</dt>
              <dd>{yesNo(info.services.dev_outbox)}</dd>
            </dl>
            {info.online && (
              <>
                <h2 className="card__title">{t('test.online')}</h2>
                {/* What to configure is shown to administrators only (the server sends it to them alone). */}
                <dl className="facts" aria-label={t('test.online')}>
                  {(['web', 'literature', 'patents'] as const).map((kind) => (
                    <div key={kind} data-online={kind} className="facts__row">
                      <dt>{t(`test.online_${kind}`)}</dt>
                      <dd>
                        {yesNo(info.online![kind])}
                        {info.online!.setup[kind] && <span className="small muted"> {info.online!.setup[kind]}</span>}
                      </dd>
                    </div>
                  ))}
                </dl>
              </>
            )}
            <h2 className="card__title">{t('test.client')}</h2>
            <dl className="facts">
              <dt>{t('test.language')}</dt>
              <dd>{navigator.language}</dd>
              <dt>{t('test.user_agent')}</dt>
              <dd className="small">{navigator.userAgent}</dd>
            </dl>
          </section>
          <section className="card card--wide">
            <h2 className="card__title">{t('test.tools')}</h2>
            <dl className="facts facts--stacked" aria-label={t('test.tools')}>
              {info.tools.map((tool) => (
                <div key={tool.value} data-tool={tool.value} className="facts__row">
                  <dt>{tool.group} · {tool.label}</dt>
                  <dd>
                    <span className={`pill ${tool.enabled ? 'pill--ok' : 'pill--off'}`}>{tool.enabled ? t('test.tool_on') : t('test.tool_off')}</span>
                    <span className="small muted"> {tool.description}</span>
                  </dd>
                </div>
              ))}
              <dt>{t('test.mcp')}</dt>
              <dd><code>{`${window.location.origin}${info.mcp_path}`}</code></dd>
            </dl>
          </section>
        </div>
      )}
    </main>
  );
}
