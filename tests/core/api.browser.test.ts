import { z } from 'zod';
import { ApiError, createApiClient, lazySchema, SIGN_IN_PATH, toErrorDetail, type ErrorDetail } from '../../src/core/api';
import { createI18n } from '../../src/core/i18n';
import { createToastStore } from '../../src/core/toast';
import { expect, fakeFetch, jsonResponse, restoreFetch } from './harness';

const failure = (message: string, code = 'x') => ({ success: false, message, code });

function setup(handler: Parameters<typeof fakeFetch>[0], cookies = 'XSRF-TOKEN=abc.def; other=1') {
  const { fetch, calls } = fakeFetch(handler);
  const toasts = createToastStore();
  const navigations: string[] = [];
  const unauthorized: number[] = [];
  const api = createApiClient({ fetch, toasts, i18n: createI18n(), navigate: (p) => navigations.push(p), onUnauthorized: () => unauthorized.push(1), readCookies: () => cookies });
  return { api, calls, toasts, navigations, unauthorized };
}

async function failureOf(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

describe('the API client', () => {
  // The client is handed the fake's fetch; the page's own is put back after each test too.
  afterEach(restoreFetch);

  it('sends same-origin cookies, X-Requested-With and the CSRF token from the XSRF-TOKEN cookie', async () => {
    const { api, calls } = setup(() => jsonResponse(200, { success: true, data: { id: 'c1' }, message: '' }));
    const data = await api.post('/channel', { name: '阿司匹林' }, z.object({ id: z.string() }));
    expect(data).to.deep.equal({ id: 'c1' });
    const call = calls[0]!;
    expect(call.url).to.equal('/api/v1/channel');
    expect(call.init.method).to.equal('POST');
    expect(call.init.credentials).to.equal('same-origin');
    expect(call.headers.get('X-Requested-With')).to.equal('XMLHttpRequest');
    expect(call.headers.get('X-CSRF-TOKEN')).to.equal('abc.def');
    expect(call.headers.get('Content-Type')).to.contain('application/json');
    expect(JSON.parse(String(call.init.body))).to.deep.equal({ name: '阿司匹林' });
  });

  it('sends Accept-Language of the language shown: Chinese by default, English once the UI is English', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, { success: true, data: {}, message: '' }));
    const i18n = createI18n();
    const api = createApiClient({ fetch, toasts: createToastStore(), i18n, navigate: () => {}, readCookies: () => '' });
    await api.get('/auth/me', z.unknown());
    expect(calls[0]!.headers.get('Accept-Language')).to.match(/^zh/);
    await i18n.changeLanguage('en');
    await api.post('/channel', { name: 'x' }, z.unknown());
    expect(calls.at(-1)!.headers.get('Accept-Language')).to.match(/^en\b/);
  });

  it('an element with lang="en" asks for English even on a Chinese page', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, { success: true, data: {}, message: '' }));
    const api = createApiClient({ fetch, lang: 'en', toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, readCookies: () => '' });
    await api.get('/knowledge_base/list', z.unknown());
    expect(calls[0]!.headers.get('Accept-Language')).to.equal('en, zh;q=0.5');
  });

  it('parses with a schema loaded on demand, and rejects data that does not match it', async () => {
    let loads = 0;
    const schema = lazySchema(async () => {
      loads += 1;
      return z.object({ id: z.string() });
    });
    const good = setup(() => jsonResponse(200, { success: true, data: { id: 'c1', extra: 1 }, message: '' }));
    expect(await good.api.get('/channel/c1', schema)).to.deep.equal({ id: 'c1' });
    expect(loads).to.equal(1);
    const bad = setup(() => jsonResponse(200, { success: true, data: { id: 7 }, message: '' }));
    const err = await failureOf(bad.api.get('/channel/c1', schema));
    expect(err.code).to.equal('unexpected_response');
    expect(bad.toasts.$toasts.value[0]?.title).to.equal('Error');
  });

  it('reports a network failure when a lazy schema cannot load', async () => {
    const { api } = setup(() => jsonResponse(200, { success: true, data: { id: 'c1' }, message: '' }));
    const err = await failureOf(api.get('/channel/c1', lazySchema(() => Promise.reject(new Error('chunk failed')))));
    expect(err.status).to.equal(0);
    expect(err.code).to.equal('network_error');
  });

  it('uses a configured api-base with credentials included', async () => {
    const { fetch, calls } = fakeFetch(() => jsonResponse(200, { success: true, data: null, message: '' }));
    const api = createApiClient({ apiBase: 'https://csai.example.org/', fetch, toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, readCookies: () => 'XSRF-TOKEN=t' });
    await api.get('/', z.null());
    expect(calls[0]!.url).to.equal('https://csai.example.org/api/v1/');
    expect(calls[0]!.init.credentials).to.equal('include');
  });

  it('fetches the CSRF cookie with the ping before a first write', async () => {
    let cookies = '';
    const { fetch, calls } = fakeFetch((url) => {
      if (url === '/api/v1/') cookies = 'XSRF-TOKEN=fresh';
      return jsonResponse(200, { success: true, data: null, message: '' });
    });
    const api = createApiClient({ fetch, toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, readCookies: () => cookies });
    await api.post('/auth/sign-out', undefined, z.null());
    expect(calls.map((c) => c.url)).to.deep.equal(['/api/v1/', '/api/v1/auth/sign-out']);
    expect(calls[1]!.headers.get('X-CSRF-TOKEN')).to.equal('fresh');
  });

  it('downloads a blob with its file name', async () => {
    const { api } = setup(() => new Response(new Blob(['%PDF-1.7']), { status: 200, headers: { 'Content-Disposition': "attachment; filename*=UTF-8''%E6%8A%A5%E5%91%8A.pdf" } }));
    const { blob, filename } = await api.download('/knowledge_base/download/d1');
    expect(await blob.text()).to.equal('%PDF-1.7');
    expect(filename).to.equal('报告.pdf');
  });

  it('refuses a success body that does not match the contract', async () => {
    const { api } = setup(() => jsonResponse(200, { success: true, data: { id: 5 }, message: '' }));
    const err = await failureOf(api.get('/x', z.object({ id: z.string() })));
    expect(err.code).to.equal('unexpected_response');
  });

  describe('SPEC §8 catalogue', () => {
    for (const message of ['Signature verification failed', 'Signature has expired']) {
      it(`401 "${message}" → toast 您的登录已失效，请先登录 and sign-in`, async () => {
        const { api, toasts, navigations } = setup(() => jsonResponse(401, failure(message, 'session_invalid')));
        const err = await failureOf(api.get('/auth/me', z.unknown()));
        expect(err.status).to.equal(401);
        expect(err.message).to.equal(message);
        expect(toasts.$toasts.value[0]?.title).to.equal('您的登录已失效，请先登录');
        expect(toasts.$toasts.value[0]?.variant).to.equal('destructive');
        expect(navigations).to.deep.equal([SIGN_IN_PATH]);
      });
    }

    it('any other 401 → sign-in, with the Error toast', async () => {
      const { api, toasts, navigations, unauthorized } = setup(() => jsonResponse(401, failure('请先登录', 'unauthenticated')));
      await failureOf(api.get('/channel', z.unknown()));
      expect(navigations).to.deep.equal(['/auth/sign-in']);
      expect(unauthorized).to.have.length(1);
      expect(toasts.$toasts.value[0]).to.include({ title: 'Error', description: '/api/v1/channel error! 请先登录', variant: 'destructive' });
    });

    for (const status of [502, 404, 500]) {
      it(`${status} → destructive "Error" toast with URL, "error!" and the message; no redirect`, async () => {
        const { api, toasts, navigations } = setup(() => jsonResponse(status, failure('服务器内部错误，请稍后重试')));
        const err = await failureOf(api.get('/knowledge_base/doc/9', z.unknown()));
        expect(err.status).to.equal(status);
        expect(toasts.$toasts.value[0]).to.include({
          title: 'Error',
          description: '/api/v1/knowledge_base/doc/9 error! 服务器内部错误，请稍后重试',
          variant: 'destructive',
        });
        expect(navigations).to.deep.equal([]);
      });
    }

    it('a 502 from a proxy with an HTML body still names the URL', async () => {
      const { api, toasts } = setup(() => new Response('<html>Bad Gateway</html>', { status: 502 }));
      const err = await failureOf(api.get('/', z.unknown()));
      expect(err.status).to.equal(502);
      expect(toasts.$toasts.value[0]?.description).to.match(/^\/api\/v1\/ error! /);
    });

    it('400 and 403 are left to the caller: typed error with the server message and field, no toast', async () => {
      const { api, toasts, navigations } = setup(() => jsonResponse(400, { success: false, message: '密码至少需要8个字符', code: 'invalid_input', field: 'password' }));
      const err = await failureOf(api.post('/auth/sign-up', {}, z.unknown()));
      expect(err).to.be.instanceOf(ApiError);
      expect(err).to.include({ status: 400, message: '密码至少需要8个字符', code: 'invalid_input', field: 'password' });
      expect(toasts.$toasts.value).to.have.length(0);
      expect(navigations).to.have.length(0);
    });

    it('a quiet call skips the toasts but still goes to sign-in on 401', async () => {
      const { api, toasts, navigations } = setup(() => jsonResponse(401, failure('Signature has expired')));
      await failureOf(api.get('/auth/me', z.unknown(), { quiet: true }));
      expect(toasts.$toasts.value).to.have.length(0);
      expect(navigations).to.deep.equal(['/auth/sign-in']);
    });

    it('an upload sends multipart form data with the CSRF headers', async () => {
      const { api, calls } = setup(() => jsonResponse(200, { success: true, data: { name_id: [{ name: 'a.pdf', docId: 'd1' }] }, message: '' }));
      const form = new FormData();
      form.append('files', new Blob(['%PDF']), 'a.pdf');
      const data = await api.upload('/knowledge_base/upload?folder_id=f1', form, z.object({ name_id: z.array(z.object({ name: z.string(), docId: z.string() })) }));
      expect(data.name_id[0]?.docId).to.equal('d1');
      expect(calls[0]!.init.body).to.be.instanceOf(FormData);
      expect(calls[0]!.headers.get('X-CSRF-TOKEN')).to.equal('abc.def');
    });

    for (const [status, message] of [[403, '没有权限'], [400, 'Invalid session key']] as const) {
      it(`an upload answered ${status} "${message}" → toast 需要登录 / 请先登录后再试 and sign-in`, async () => {
        const { api, toasts, navigations } = setup(() => jsonResponse(status, failure(message)));
        await failureOf(api.upload('/knowledge_base/upload', new FormData(), z.unknown()));
        expect(toasts.$toasts.value[0]).to.include({ title: '需要登录', description: '请先登录后再试', variant: 'destructive' });
        expect(navigations).to.deep.equal(['/auth/sign-in']);
      });
    }

    it('any other upload failure → toast 上传失败 / 文件上传过程中发生错误', async () => {
      const { api, toasts, navigations } = setup(() => jsonResponse(500, failure('磁盘已满')));
      const err = await failureOf(api.upload('/knowledge_base/upload', new FormData(), z.unknown()));
      expect(err.message).to.equal('磁盘已满');
      expect(toasts.$toasts.value[0]).to.include({ title: '上传失败', description: '文件上传过程中发生错误', variant: 'destructive' });
      expect(navigations).to.deep.equal([]);
    });

    it('a network failure becomes an ApiError with status 0', async () => {
      const { api } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
      const err = await failureOf(api.get('/', z.unknown()));
      expect(err.status).to.equal(0);
      expect(err.message).to.equal('网络连接失败，请检查网络后重试');
    });
  });

  describe('on an element', () => {
    it('reports every failure as an ErrorDetail (csai-error), the quiet ones too, never an abort', async () => {
      const details: ErrorDetail[] = [];
      const { fetch } = fakeFetch((url) => (url.endsWith('/gone') ? jsonResponse(404, failure('文档不存在', 'not_found')) : jsonResponse(400, { success: false, message: '名称不能为空', code: 'invalid_input', field: 'name' })));
      const api = createApiClient({ fetch, toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, onError: (d) => details.push(d), readCookies: () => 'XSRF-TOKEN=t' });
      await failureOf(api.get('/gone', z.unknown()));
      await failureOf(api.post('/channel', {}, z.unknown(), { quiet: true }));
      const controller = new AbortController();
      controller.abort();
      await failureOf(api.get('/gone', z.unknown(), { signal: controller.signal }));
      expect(details).to.deep.equal([
        { message: '文档不存在', code: 'not_found', status: 404 },
        { message: '名称不能为空', code: 'invalid_input', status: 400 },
      ]);
    });

    it('embedded: a 401 is reported to the page and does not move it to sign-in', async () => {
      const details: ErrorDetail[] = [];
      const navigations: string[] = [];
      const { fetch } = fakeFetch(() => jsonResponse(401, failure('请先登录', 'unauthenticated')));
      const api = createApiClient({ apiBase: 'https://csai.example.org', embed: true, fetch, toasts: createToastStore(), i18n: createI18n(), navigate: (p) => navigations.push(p), onError: (d) => details.push(d), readCookies: () => '' });
      await failureOf(api.get('/knowledge_base/doc/d1', z.unknown()));
      expect(navigations).to.deep.equal([]);
      expect(details).to.deep.equal([{ message: '请先登录', code: 'unauthenticated', status: 401 }]);
    });

    it('writes its own messages in the element’s language', async () => {
      const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
      const api = createApiClient({ fetch, lang: 'en', toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, readCookies: () => '' });
      const err = await failureOf(api.get('/', z.unknown()));
      expect(err.message).to.equal('Network error, please check your connection');
    });

    it('reads a prefetched answer through the same checks', async () => {
      const { api, calls, toasts } = setup(() => jsonResponse(200, {}));
      const data = await api.get('/knowledge_base/doc/d1', z.object({ docId: z.string() }), { response: Promise.resolve(jsonResponse(200, { success: true, data: { docId: 'd1' }, message: '' })) });
      expect(data).to.deep.equal({ docId: 'd1' });
      const err = await failureOf(api.response('/knowledge_base/download/d1', { response: Promise.resolve(jsonResponse(404, failure('文件不存在', 'not_found'))) }));
      expect(err).to.include({ status: 404, message: '文件不存在', code: 'not_found' });
      expect(toasts.$toasts.value[0]?.description).to.equal('/api/v1/knowledge_base/download/d1 error! 文件不存在');
      expect(calls).to.have.length(0);
    });

    it('uploads with XHR when asked for progress: headers, credentials, progress and the envelope', async () => {
      const sent: { url: string; headers: Record<string, string>; withCredentials: boolean }[] = [];
      const real = globalThis.XMLHttpRequest;
      class FakeXhr extends EventTarget {
        status = 0;
        responseText = '';
        withCredentials = false;
        private url = '';
        private headers: Record<string, string> = {};
        readonly upload = new EventTarget();
        open(_m: string, url: string) {
          this.url = url;
        }
        setRequestHeader(name: string, value: string) {
          this.headers[name] = value;
        }
        getAllResponseHeaders() {
          return 'content-type: application/json\r\n';
        }
        abort() {}
        send() {
          sent.push({ url: this.url, headers: this.headers, withCredentials: this.withCredentials });
          this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: 50, total: 200 }));
          this.status = 200;
          this.responseText = JSON.stringify({ success: true, data: { name_id: [{ name: 'a.pdf', docId: 'd1' }] }, message: '' });
          this.dispatchEvent(new ProgressEvent('load'));
        }
      }
      Object.defineProperty(globalThis, 'XMLHttpRequest', { value: FakeXhr, configurable: true, writable: true });
      try {
        const { fetch } = fakeFetch(() => jsonResponse(200, { success: true, data: { token: 'cross-token' }, message: '' }));
        const api = createApiClient({ apiBase: 'https://csai.example.org', embed: true, fetch, toasts: createToastStore(), i18n: createI18n(), navigate: () => {}, readCookies: () => '' });
        const progress: number[][] = [];
        const form = new FormData();
        form.append('files', new Blob(['%PDF']), 'a.pdf');
        const data = await api.upload('/knowledge_base/upload?folder_id=f1', form, z.object({ name_id: z.array(z.object({ name: z.string(), docId: z.string() })) }), { onProgress: (loaded, total) => progress.push([loaded, total]) });
        expect(data.name_id[0]?.docId).to.equal('d1');
        expect(progress).to.deep.equal([[50, 200]]);
        expect(sent[0]!.url).to.equal('https://csai.example.org/api/v1/knowledge_base/upload?folder_id=f1');
        expect(sent[0]!.withCredentials).to.equal(true);
        const headers = Object.fromEntries(Object.entries(sent[0]!.headers).map(([k, v]) => [k.toLowerCase(), v]));
        expect(headers['x-requested-with']).to.equal('XMLHttpRequest');
        expect(headers['x-csrf-token']).to.equal('cross-token');
        expect(headers['accept-language']).to.match(/^zh/);
      } finally {
        Object.defineProperty(globalThis, 'XMLHttpRequest', { value: real, configurable: true, writable: true });
      }
    });
  });

  it('toErrorDetail keeps an ApiError’s code and status and names anything else by the fallback', () => {
    expect(toErrorDetail(new ApiError(404, '文档不存在', 'not_found', '/x'))).to.deep.equal({ message: '文档不存在', code: 'not_found', status: 404 });
    expect(toErrorDetail(new ApiError(0, '网络连接失败，请检查网络后重试', 'network_error', '/x'))).to.deep.equal({ message: '网络连接失败，请检查网络后重试', code: 'network_error' });
    expect(toErrorDetail(new Error('boom'), 'pdf_failed')).to.deep.equal({ message: 'boom', code: 'pdf_failed' });
    expect(toErrorDetail('x', 'send_failed', '发送失败')).to.deep.equal({ message: '发送失败', code: 'send_failed' });
  });
});
