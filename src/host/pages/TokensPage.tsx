import './TokensPage.strings';
import { useState, type FormEvent } from 'react';
import { apiTokenBody, type ApiToken } from '../../contract/auth';
import type { CallOptions } from '../../core/api';
import { createAuthApi } from '../../core/auth-api';
import { api } from '../../core/page';
import { messageOf, useApiList } from './use-api-list';
import { toastStore } from '../../core/toast';
import { useT } from '../i18n';
import { usePageTitle } from '../shell/common';
import { Icon } from '../shell/Icons';

const readTokens = (opts: CallOptions) => createAuthApi(api()).tokens(opts);
const when = (iso: string) => new Date(iso).toLocaleString();

/** The MCP client configuration for this site (the token stays a placeholder: it is never shown again). */
const mcpConfig = (origin: string) =>
  JSON.stringify({ mcpServers: { csai: { type: 'http', url: `${origin}/mcp`, headers: { Authorization: 'Bearer <令牌>' } } } }, null, 2);

/** /tokens (user menu): personal API tokens for scripts and MCP clients — create (shown once), list, delete. */
export default function TokensPage() {
  const t = useT();
  usePageTitle(t('tokens.title'));
  const { items: tokens, error: loadError, reload: load } = useApiList(readTokens);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    const checked = apiTokenBody.safeParse({ name });
    if (!checked.success) {
      setNameError(checked.error.issues[0]?.message ?? '');
      return;
    }
    setNameError(null);
    setBusy(true);
    try {
      const created = await createAuthApi(api()).createToken(checked.data, { quiet: true });
      setFresh(created.token);
      setName('');
      load();
    } catch (err) {
      setNameError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (token: ApiToken) => {
    try {
      await createAuthApi(api()).revokeToken(token.id);
      toastStore().toast({ title: t('tokens.revoked') });
      setConfirming(null);
      load();
    } catch {
      // the client's toast already says why
    }
  };

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toastStore().toast({ title: t('tokens.copied') });
    } catch {
      toastStore().toast({ variant: 'destructive', title: t('tokens.copy_failed') });
    }
  };

  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">{t('tokens.title')}</h1>
        <p className="muted">{t('tokens.subtitle')}</p>
      </header>
      <section className="card">
        <form className="form" onSubmit={(e) => void create(e)} noValidate>
          <div className="field">
            <label className="field__label" htmlFor="token-name">{t('tokens.name')}</label>
            <div className="field-row field-row--bare">
              <input
                id="token-name"
                className="input"
                value={name}
                maxLength={50}
                placeholder={t('tokens.name_placeholder')}
                aria-invalid={nameError ? true : undefined}
                aria-describedby={nameError ? 'token-name-error' : undefined}
                onChange={(e) => setName(e.target.value)}
              />
              <button type="submit" className="button button--primary field-row__action" disabled={busy}>
                {busy ? t('tokens.creating') : t('tokens.create')}
              </button>
            </div>
            {nameError && <p id="token-name-error" className="field__error" role="alert">{nameError}</p>}
          </div>
        </form>
        {fresh && (
          <div className="form-success" role="status">
            <p>{t('tokens.created')}</p>
            <div className="field-row field-row--bare">
              <code className="input" data-testid="new-token">{fresh}</code>
              <button type="button" className="button field-row__action" onClick={() => void copy(fresh)}>
                {t('tokens.copy')}
              </button>
            </div>
          </div>
        )}
      </section>
      <section className="card">
        <h2 className="card__title">{t('tokens.list')}</h2>
        {loadError && <p className="form-error" role="alert">{t('tokens.load_failed', { message: loadError })}</p>}
        {tokens && tokens.length === 0 && <p className="muted">{t('tokens.empty')}</p>}
        {tokens && tokens.length > 0 && (
          <ul className="checklist" aria-label={t('tokens.list')}>
            {tokens.map((token) => (
              <li key={token.id} data-token-id={token.id}>
                <Icon name="check" size={16} />
                <span>
                  <strong>{token.name}</strong> <code>{token.prefix}…</code>
                  <span className="muted small"> · {t('tokens.created_at', { time: when(token.created_at) })} · {token.last_used_at ? t('tokens.last_used', { time: when(token.last_used_at) }) : t('tokens.never_used')}</span>
                </span>
                {confirming === token.id ? (
                  <span role="group" className="small">
                    {t('tokens.confirm_revoke', { name: token.name })}{' '}
                    <button type="button" className="button button--ghost" onClick={() => void revoke(token)}>{t('tokens.confirm')}</button>
                    <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>{t('tokens.cancel')}</button>
                  </span>
                ) : (
                  <button type="button" className="button button--ghost" onClick={() => setConfirming(token.id)}>{t('tokens.revoke')}</button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card">
        <h2 className="card__title">{t('tokens.mcp_title')}</h2>
        <p className="muted">{t('tokens.mcp_hint')}</p>
        <pre className="small"><code>{mcpConfig(window.location.origin)}</code></pre>
      </section>
    </div>
  );
}
