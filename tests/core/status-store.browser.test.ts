import { clearStatusStorage, createStatusStore, statusStore, STORAGE_PREFIX } from '../../src/core/status-store';
import { expect } from './harness';

describe('the client status store', () => {
  beforeEach(() => clearStatusStorage(sessionStorage));

  it('starts with exactly the SPEC §3 defaults', () => {
    const s = createStatusStore(sessionStorage);
    expect(s.session.$user_info.value).to.deep.equal({ show_name: '', username: '', id: '', department_name: '' });
    expect(s.layout.$main_status.value).to.equal(1);
    expect(s.ask.$channel_id.value).to.equal('');
    expect(s.ask.$file_data.value).to.deep.equal([]);
    expect(s.knowledge.$folder_id.value).to.equal('');
    expect(s.knowledge.$folder_name.value).to.equal('');
    expect(s.knowledge.$folder_file_count.value).to.equal(0);
    expect(s.ask.$prompt_list.value).to.deep.equal([]);
    expect(s.knowledge.$folder_list.value).to.deep.equal([]);
    expect(s.session.$login_dialog.value).to.equal(false);
    expect(s.session.$user_tab.value).to.equal('sign_in');
    expect(s.session.$password_token.value).to.equal('');
    expect(s.session.$user_id.value).to.equal('');
    expect(s.layout.$miniside_show_content.value).to.equal('');
    expect(s.layout.$current_btn.value).to.equal('new');
    expect(s.layout.$ask_active.value).to.equal(-1);
    expect(s.layout.$knowledge_active.value).to.equal(-1);
    expect(s.layout.$miniside_tab.value).to.equal('-1');
    expect(s.knowledge.$now_knowledge.value).to.equal(null);
    expect(s.knowledge.$knowledge_folders.value).to.deep.equal([]);
    expect(s.ask.$knowledgeCSAIDefault.value).to.deep.equal([]);
    expect(s.ask.$llm_select.value).to.equal(0);
    expect(s.session.$need_login.value).to.equal(false);
    expect(s.ask.$files_list.value).to.deep.equal([]);
    expect(s.ask.$change_to_question_page.value).to.equal(false);
    expect(s.ask.$docNameSelectList.value).to.deep.equal([]);
    expect(s.ask.$now_knowledge_list.value).to.deep.equal([]);
    expect(s.ask.$docIdList.value).to.deep.equal([]);
    expect(s.ask.$selectedKbs.value).to.deep.equal([]);
    expect(s.ask.$isOnline.value).to.equal(true);
    expect(s.ask.$searchType.value).to.equal('all');
    expect(s.ask.$isThinking.value).to.equal(true);
    expect(s.ask.$isDeepResearch.value).to.equal(false);
    expect(s.layout.$isSidebarOpen.value).to.equal(true);
    expect(s.layout.$isRightSidebarOpen.value).to.equal(false);
    expect(s.viewer.$current_pdf_url.value).to.equal('');
    expect(s.viewer.$if_highlight_card.value).to.equal('');
    expect(s.layout.$show_main_router.value).to.equal(true);
  });

  it('keeps changes in sessionStorage so a reload sees them', () => {
    const first = createStatusStore(sessionStorage);
    first.layout.incrementMainStatus();
    first.layout.toggleSidebar();
    first.ask.$isDeepResearch.value = true;
    first.session.signIn({ show_name: '138****5678', username: '张三', id: 'u1', department_name: 'none' });
    expect(sessionStorage.getItem(`${STORAGE_PREFIX}main_status`)).to.equal('2');

    const reloaded = createStatusStore(sessionStorage);
    expect(reloaded.layout.$main_status.value).to.equal(2);
    expect(reloaded.layout.$isSidebarOpen.value).to.equal(false);
    expect(reloaded.ask.$isDeepResearch.value).to.equal(true);
    expect(reloaded.session.$user_info.value.show_name).to.equal('138****5678');
    expect(reloaded.session.$user_id.value).to.equal('u1');
  });

  it('falls back to the default when a stored value is corrupt or of the wrong type', () => {
    sessionStorage.setItem(`${STORAGE_PREFIX}main_status`, '{not json');
    sessionStorage.setItem(`${STORAGE_PREFIX}isThinking`, '"yes"');
    const s = createStatusStore(sessionStorage);
    expect(s.layout.$main_status.value).to.equal(1);
    expect(s.ask.$isThinking.value).to.equal(true);
  });

  it('is one store per page, however many parts ask for it', () => {
    expect(statusStore()).to.equal(statusStore());
    statusStore().ask.preselectDocuments(['d1', 'd2', 'd1']);
    expect(statusStore().ask.$docIdList.value).to.deep.equal(['d1', 'd2']);
  });

  it('signing out forgets the user and can mark need_login', () => {
    const s = createStatusStore(sessionStorage);
    s.session.signIn({ show_name: 'a@b.c', username: 'A', id: 'u2', department_name: 'none' });
    s.session.signOut(true);
    expect(s.session.$user_info.value.id).to.equal('');
    expect(s.session.$need_login.value).to.equal(true);
  });
});
