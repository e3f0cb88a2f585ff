// The account calls of SPEC §6/§7 (session, sign-in and sign-up, one-time codes, passwords, the
// interface language, personal API tokens). The session check and sign-out are in every page's
// first load, so the schemas here all load with their first call (`lazySchema`): no zod before it.
import type { z } from 'zod';
import type { accountBody, apiTokenBody, INTERFACE_LANGUAGES, otpVerifyBody, resetPasswordBody, signInBody, SignUpBody } from '../contract/auth';
import { lazySchema, type ApiClient, type CallOptions } from './api';

const contract = () => import('../contract/auth');
/** `data: null`: calls that only succeed or fail. */
const nothing = lazySchema(() => import('./envelope-parse').then((m) => m.nullData));

/**
 * The account calls bound to one API client. The page's forms call them with `redirect: false`
 * (a refused sign-in is the form's message, not a trip to the sign-in page).
 * @example const { user } = await createAuthApi(api()).session({ quiet: true });
 */
export function createAuthApi(client: ApiClient) {
  const enc = encodeURIComponent;
  const userInfo = lazySchema(() => contract().then((m) => m.userInfo));
  const form: CallOptions = { redirect: false };
  return {
    /** GET auth/session: the signed-in user, or none (200 either way). */
    session: (opts: CallOptions = {}) => client.get('/auth/session', lazySchema(() => contract().then((m) => m.sessionInfo)), opts),
    /** GET auth/options: whether local sign-up and the directory are offered. */
    options: (opts: CallOptions = {}) => client.get('/auth/options', lazySchema(() => contract().then((m) => m.authOptions)), opts),
    signIn: (body: z.input<typeof signInBody>) => client.post('/auth/sign-in', body, userInfo, form),
    signOut: (opts: CallOptions = {}) => client.post('/auth/sign-out', undefined, nothing, opts),
    /** POST auth/sign-up; the answer's message says where the activation went. */
    signUp: (body: SignUpBody) => client.postWithMessage('/auth/sign-up', body, nothing, form),
    activate: (token: string) => client.postWithMessage('/auth/activate', { token }, nothing, form),
    sendOtp: (body: z.input<typeof accountBody>) => client.postWithMessage('/auth/otp/send', body, nothing, form),
    verifyOtp: (body: z.input<typeof otpVerifyBody>) => client.post('/auth/otp/verify', body, userInfo, form),
    forgotPassword: (body: z.input<typeof accountBody>) => client.postWithMessage('/auth/forgot-password', body, nothing, form),
    resetPassword: (body: z.input<typeof resetPasswordBody>) => client.postWithMessage('/auth/reset-password', body, nothing, form),
    /** PUT auth/me/language: the signed-in user's interface language, kept by the server. */
    setLanguage: (language: (typeof INTERFACE_LANGUAGES)[number], opts: CallOptions = {}) => client.put('/auth/me/language', { language }, userInfo, opts),
    /** GET auth/tokens: the user's personal API tokens (never their secrets). */
    tokens: (opts: CallOptions = {}) => client.get('/auth/tokens', lazySchema(() => contract().then((m) => m.apiToken.array())), opts),
    /** POST auth/tokens: a new token, its secret shown this once. */
    createToken: (body: z.output<typeof apiTokenBody>, opts: CallOptions = {}) => client.post('/auth/tokens', body, lazySchema(() => contract().then((m) => m.createdApiToken)), opts),
    revokeToken: (id: string) => client.delete(`/auth/tokens/${enc(id)}`, lazySchema(() => import('./auth-schemas').then((m) => m.revokedTokens))),
  };
}
/** The account calls. */
export type AuthApi = ReturnType<typeof createAuthApi>;
