import { setNavigate } from '../../src/core/page';
import { clearStatusStorage, statusStore } from '../../src/core/status-store';
import { toastStore } from '../../src/core/toast';
import { confirmSession, probablySignedIn, sessionEnded } from '../../src/host/session';
import { expect, jsonResponse, restoreFetch } from '../core/harness';
import { fakeApi } from '../widgets/fake-api';

const user = {
  id: 'u1', _id: 'u1', name: '王化学', phone: '13812345678', telephone: '13812345678', email: null,
  department_name: 'none', show_name: '138****5678', is_admin: false,
};

describe('the page-load session check', () => {
  const realError = console.error;
  let errors: string[] = [];
  let pageNavigations: string[] = [];
  let routerNavigations: string[] = [];

  beforeEach(() => {
    clearStatusStorage(sessionStorage);
    toastStore().remove();
    sessionEnded();
    errors = [];
    pageNavigations = [];
    routerNavigations = [];
    setNavigate((path) => pageNavigations.push(path));
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(' '));
  });
  afterEach(() => {
    restoreFetch();
    console.error = realError;
    sessionEnded();
  });

  /** Answers GET /auth/session; any other call gets the server's 404. */
  const serve = (answer: () => Response) => {
    // A second answer in the same test replaces the first; restoreFetch puts back the page's own.
    return fakeApi([['GET', '/auth/session', answer]]).calls;
  };

  describe('for a signed-out visitor', () => {
    it('asks /auth/session (a 200 with no user, never the 401 of /auth/me), marks need_login and goes to sign-in quietly', async () => {
      const calls = serve(() => jsonResponse(200, { success: true, data: { user: null, state: 'anonymous' }, message: '' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(false);
      expect(calls.map((c) => new URL(c.url, location.href).pathname)).to.deep.equal(['/api/v1/auth/session']);
      expect(pageNavigations).to.deep.equal(['/auth/sign-in']);
      expect(routerNavigations, 'no error page').to.deep.equal([]);
      expect(statusStore().session.$need_login.value).to.equal(true);
      expect(probablySignedIn()).to.equal(false);
      expect(toastStore().$toasts.value, 'no toast on a first visit').to.deep.equal([]);
      expect(errors).to.deep.equal([]);
    });

    it('treats an expired session the same way', async () => {
      serve(() => jsonResponse(200, { success: true, data: { user: null, state: 'expired' }, message: '' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(false);
      expect(pageNavigations).to.deep.equal(['/auth/sign-in']);
      expect(statusStore().session.$need_login.value).to.equal(true);
    });
  });

  describe('for a signed-in user', () => {
    it('stores the user with the masked display name and remembers the hint', async () => {
      serve(() => jsonResponse(200, { success: true, data: { user, state: 'signed_in' }, message: '' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(true);
      expect(statusStore().session.$user_info.value).to.deep.include({ id: 'u1', show_name: '138****5678', username: '王化学' });
      expect(statusStore().session.$need_login.value).to.equal(false);
      expect(probablySignedIn()).to.equal(true);
      expect(pageNavigations).to.deep.equal([]);
    });
  });

  describe('when the server fails', () => {
    it('shows the 503 page for a network failure and the 500 page for a 500', async () => {
      serve(() => jsonResponse(503, { success: false, message: '服务暂不可用', code: 'unavailable' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(false);
      serve(() => jsonResponse(500, { success: false, message: '服务器内部错误', code: 'internal' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(false);
      expect(routerNavigations).to.deep.equal(['/errors/503', '/errors/500']);
    });

    it('an unexpected answer (no user field) is not taken for a signed-in user', async () => {
      serve(() => jsonResponse(200, { success: true, data: { state: 'signed_in' }, message: '' }));
      expect(await confirmSession((p) => routerNavigations.push(p))).to.equal(false);
      expect(probablySignedIn()).to.equal(false);
      expect(statusStore().session.$user_info.value.id).to.equal('');
    });
  });
});
