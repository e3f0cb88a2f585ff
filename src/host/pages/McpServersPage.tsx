import './McpServersPage.strings';
import { useState, type FormEvent } from 'react';
import { mcpAuthUpdate, mcpServerInput, type McpAuthInput, type McpServerView } from '../../contract/mcp-servers';
import type { CallOptions } from '../../core/api';
import { createMcpApi } from '../../core/mcp-api';
import { api } from '../../core/page';
import { messageOf, useApiList } from './use-api-list';
import { toastStore } from '../../core/toast';
import { useT } from '../i18n';
import { usePageTitle } from '../shell/common';

const mcp = () => createMcpApi(api());
const readServers = (opts: CallOptions) => mcp().list(opts);

/** The authentication fields of a form: none, a Bearer token, or a header name and value. */
interface AuthForm {
  type: 'none' | 'bearer' | 'header';
  token: string;
  name: string;
  value: string;
}
const NO_AUTH: AuthForm = { type: 'none', token: '', name: '', value: '' };
const authPayload = (a: AuthForm): McpAuthInput | null =>
  a.type === 'bearer' ? { type: 'bearer', token: a.token } : a.type === 'header' ? { type: 'header', name: a.name, value: a.value } : null;

/** The authentication fields (`prefix` keeps the ids of two forms apart); the secret inputs never show what was typed. */
function AuthFields({ prefix, auth, onChange }: { prefix: string; auth: AuthForm; onChange: (a: AuthForm) => void }) {
  const t = useT();
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={`${prefix}-auth`}>{t('mcp_servers.auth')}</label>
        <select id={`${prefix}-auth`} className="input" value={auth.type} onChange={(e) => onChange({ ...auth, type: e.target.value === 'bearer' ? 'bearer' : e.target.value === 'header' ? 'header' : 'none' })}>
          <option value="none">{t('mcp_servers.auth_none')}</option>
          <option value="bearer">{t('mcp_servers.auth_bearer')}</option>
          <option value="header">{t('mcp_servers.auth_header')}</option>
        </select>
      </div>
      {auth.type === 'bearer' && (
        <div className="field">
          <label className="field__label" htmlFor={`${prefix}-token`}>{t('mcp_servers.token')}</label>
          <input id={`${prefix}-token`} className="input" type="password" autoComplete="off" value={auth.token} onChange={(e) => onChange({ ...auth, token: e.target.value })} />
        </div>
      )}
      {auth.type === 'header' && (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${prefix}-header-name`}>{t('mcp_servers.header_name')}</label>
            <input id={`${prefix}-header-name`} className="input" autoComplete="off" placeholder="X-API-Key" value={auth.name} onChange={(e) => onChange({ ...auth, name: e.target.value })} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${prefix}-header-value`}>{t('mcp_servers.header_value')}</label>
            <input id={`${prefix}-header-value`} className="input" type="password" autoComplete="off" value={auth.value} onChange={(e) => onChange({ ...auth, value: e.target.value })} />
          </div>
        </>
      )}
    </>
  );
}

/** The inline form that replaces or removes a stored server's authentication. */
function AuthEditor({ server, onDone }: { server: McpServerView; onDone: (changed: boolean) => void }) {
  const t = useT();
  const [auth, setAuth] = useState<AuthForm>(server.auth ? { ...NO_AUTH, type: server.auth.type, name: server.auth.type === 'header' ? server.auth.header : '' } : NO_AUTH);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const prefix = `mcp-auth-${server.name}`;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const checked = mcpAuthUpdate.safeParse({ auth: authPayload(auth) });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? '');
      return;
    }
    setBusy(true);
    try {
      const view = await mcp().updateAuth(server.id, checked.data, { quiet: true });
      toastStore().toast({ title: view.status === 'ready' ? t('mcp_servers.auth_saved') : t('mcp_servers.auth_saved_down') });
      onDone(true);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form" onSubmit={(e) => void save(e)} noValidate aria-label={t('mcp_servers.set_auth_for', { name: server.title })} aria-describedby={error ? `${prefix}-error` : undefined}>
      <AuthFields prefix={prefix} auth={auth} onChange={setAuth} />
      {server.auth && auth.type !== 'none' && <p className="small muted">{t('mcp_servers.auth_replace_hint')}</p>}
      {error && <p id={`${prefix}-error`} className="field__error" role="alert">{error}</p>}
      <span role="group" className="small">
        <button type="submit" className="button button--primary" disabled={busy}>{t('mcp_servers.save_auth')}</button>
        <button type="button" className="button button--ghost" onClick={() => onDone(false)}>{t('mcp_servers.cancel')}</button>
      </span>
    </form>
  );
}

/** /admin/mcp_servers (user menu, administrators): the MCP servers whose tools the model may call — add by URL, reconnect, delete. */
export default function McpServersPage() {
  const t = useT();
  usePageTitle(t('mcp_servers.title'));
  const { items: servers, error: loadError, reload: load } = useApiList(readServers, { quiet: true });
  const [form, setForm] = useState({ name: '', title: '', transport: 'http' as 'http' | 'sse', url: '' });
  const [auth, setAuth] = useState<AuthForm>(NO_AUTH);
  const [editingAuth, setEditingAuth] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const payload = authPayload(auth);
    const checked = mcpServerInput.safeParse({ ...form, ...(form.title.trim() ? {} : { title: undefined }), ...(payload ? { auth: payload } : {}) });
    if (!checked.success) {
      setFormError(checked.error.issues[0]?.message ?? '');
      return;
    }
    setFormError(null);
    setBusy(true);
    try {
      await mcp().add(checked.data, { quiet: true });
      toastStore().toast({ title: t('mcp_servers.added') });
      setForm({ name: '', title: '', transport: form.transport, url: '' });
      setAuth(NO_AUTH);
      load();
    } catch (err) {
      // The server's Chinese message says what is wrong (unreachable, duplicate, not allowed).
      setFormError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const reconnect = async (server: McpServerView) => {
    try {
      await mcp().reconnect(server.id);
      load();
    } catch {
      // the client's toast already says why
    }
  };

  const remove = async (server: McpServerView) => {
    try {
      await mcp().remove(server.id);
      toastStore().toast({ title: t('mcp_servers.removed') });
      setConfirming(null);
      load();
    } catch {
      // the client's toast already says why
    }
  };

  const field = (key: 'name' | 'title' | 'url', label: string, placeholder: string) => (
    <div className="field">
      <label className="field__label" htmlFor={`mcp-${key}`}>{label}</label>
      <input id={`mcp-${key}`} className="input" value={form[key]} placeholder={placeholder} onChange={(e) => setForm({ ...form, [key]: e.target.value })} />
    </div>
  );

  return (
    <div className="page">
      <header className="page__header">
        <h1 className="page__title">{t('mcp_servers.title')}</h1>
        <p className="muted">{t('mcp_servers.subtitle')}</p>
      </header>
      <section className="card">
        <form className="form" onSubmit={(e) => void add(e)} noValidate aria-describedby={formError ? 'mcp-form-error' : undefined}>
          {field('name', t('mcp_servers.name'), t('mcp_servers.name_placeholder'))}
          {field('title', t('mcp_servers.display_title'), t('mcp_servers.title_placeholder'))}
          <div className="field">
            <label className="field__label" htmlFor="mcp-transport">{t('mcp_servers.transport')}</label>
            <select id="mcp-transport" className="input" value={form.transport} onChange={(e) => setForm({ ...form, transport: e.target.value === 'sse' ? 'sse' : 'http' })}>
              <option value="http">{t('mcp_servers.transport_http')}</option>
              <option value="sse">{t('mcp_servers.transport_sse')}</option>
            </select>
          </div>
          {field('url', t('mcp_servers.url'), t('mcp_servers.url_placeholder'))}
          <AuthFields prefix="mcp" auth={auth} onChange={setAuth} />
          {formError && <p id="mcp-form-error" className="field__error" role="alert">{formError}</p>}
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? t('mcp_servers.adding') : t('mcp_servers.add')}
          </button>
        </form>
      </section>
      <section className="card">
        <h2 className="card__title">{t('mcp_servers.list')}</h2>
        {loadError && <p className="form-error" role="alert">{t('mcp_servers.load_failed', { message: loadError })}</p>}
        {servers && servers.length === 0 && <p className="muted">{t('mcp_servers.empty')}</p>}
        {servers && servers.length > 0 && (
          <ul className="checklist" aria-label={t('mcp_servers.list')}>
            {servers.map((server) => (
              <li key={server.id} data-server={server.name}>
                <span>
                  <strong>{server.title}</strong> <code>{server.name}</code> · {server.transport} · <code className="small">{server.target}</code>
                  <br />
                  <span className="small" role="status">
                    {t(`mcp_servers.status_${server.status}`)}
                    {server.reason ? `：${server.reason}` : ''} · {t('mcp_servers.tools', { count: server.tools.length })}
                    {server.origin === 'config' ? ` · ${t('mcp_servers.origin_config')}` : ''}
                  </span>
                  {server.auth && (
                    <>
                      <br />
                      <span className="small" data-auth>
                        {server.auth.type === 'bearer' ? t('mcp_servers.auth_shown_bearer', { hint: server.auth.hint }) : t('mcp_servers.auth_shown_header', { header: server.auth.header, hint: server.auth.hint })}
                      </span>
                    </>
                  )}
                  {editingAuth === server.id && (
                    <AuthEditor
                      server={server}
                      onDone={(changed) => {
                        setEditingAuth(null);
                        if (changed) load();
                      }}
                    />
                  )}
                </span>
                <span role="group" className="small">
                  <button type="button" className="button button--ghost" onClick={() => void reconnect(server)}>{t('mcp_servers.reconnect')}</button>
                  {server.origin === 'admin' && editingAuth !== server.id && (
                    <button type="button" className="button button--ghost" onClick={() => setEditingAuth(server.id)}>{t('mcp_servers.set_auth')}</button>
                  )}
                  {server.origin === 'admin' &&
                    (confirming === server.id ? (
                      <>
                        {t('mcp_servers.confirm_remove', { name: server.title })}{' '}
                        <button type="button" className="button button--ghost" onClick={() => void remove(server)}>{t('mcp_servers.confirm')}</button>
                        <button type="button" className="button button--ghost" onClick={() => setConfirming(null)}>{t('mcp_servers.cancel')}</button>
                      </>
                    ) : (
                      <button type="button" className="button button--ghost" onClick={() => setConfirming(server.id)}>{t('mcp_servers.remove')}</button>
                    ))}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
