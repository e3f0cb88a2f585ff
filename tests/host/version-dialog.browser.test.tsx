import { act } from '../react-act';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { applyLanguage, hostI18n } from '../../src/host/i18n';
import VersionDialog from '../../src/host/shell/VersionDialog';
import { expect, waitFor } from '../core/harness';

// The version history dialog reads CHANGELOG.md; its headings' notes are shown in Chinese too.
describe('the version history dialog', () => {
  it('shows the releases with no English note such as “unreleased” in the Chinese interface', async () => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    await act(() => root.render(<I18nextProvider i18n={hostI18n()}><VersionDialog onClose={() => undefined} /></I18nextProvider>));
    const dialog = await waitFor(() => host.querySelector('dialog[open]'), 'the open dialog');
    expect(dialog.querySelector('h2')?.textContent).to.equal('版本历史');
    const first = dialog.querySelector('.release h3')?.textContent ?? '';
    expect(first).to.match(/^v\d+\.\d+\.\d+/);
    // The headings and their notes are translated (a changelog line itself may quote the English word).
    for (const heading of dialog.querySelectorAll('.release h3')) expect(heading.textContent).not.to.match(/unreleased/i);
    expect(dialog.querySelector('.release__note')?.textContent).to.equal('预览版');
    // Issue 32 §2: notes for chemists, not the developer record (databases, proxies, cgroups).
    const items = [...dialog.querySelectorAll('.release li')].map((li) => li.textContent ?? '');
    expect(items.length).to.be.greaterThan(3);
    for (const item of items) expect(item).not.to.match(/PostgreSQL|nginx|cgroup|CSAI_[A-Z_]+|节点|租约/);
    expect(items.some((i) => i.includes('ADMET'))).to.equal(true);
    root.unmount();
    host.remove();
  });

  it('in English, shows the English release notes with no Chinese left', async () => {
    const i18n = hostI18n();
    const before = i18n.language === 'en' ? 'en' : 'zh';
    // As the user menu switches: English strings load on first use.
    await applyLanguage('en');
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    try {
      await act(() => root.render(<I18nextProvider i18n={i18n}><VersionDialog onClose={() => undefined} /></I18nextProvider>));
      const dialog = await waitFor(() => host.querySelector('dialog[open]'), 'the open dialog');
      expect(dialog.querySelector('h2')?.textContent).to.equal('Version history');
      expect(dialog.querySelector('.release__note')?.textContent).to.equal('Preview');
      const items = [...dialog.querySelectorAll('.release li')].map((li) => li.textContent ?? '');
      expect(items.length).to.be.greaterThan(3);
      expect(dialog.textContent).not.to.match(/[\u4e00-\u9fff]/);
    } finally {
      root.unmount();
      host.remove();
      await applyLanguage(before);
      window.localStorage.removeItem('csai:language');
    }
  });
});
