// The server-wide calls of SPEC §7 every page and element may make: the ping (GET /), the banner
// (GET prompt/get_alert) and the administrator's diagnostics (GET diagnostics). Their schemas load
// with the first call (`lazySchema`), so a page's first load carries no zod for them.
import { lazySchema, type ApiClient, type CallOptions } from './api';

const general = () => import('../contract/general');

/**
 * The server-wide calls bound to one API client.
 * @example const { version } = await createGeneralApi(api()).ping({ quiet: true });
 */
export function createGeneralApi(client: ApiClient) {
  return {
    /** GET /: the server is there, its version and whether a language model is configured. */
    ping: (opts: CallOptions = {}) => client.get('/', lazySchema(() => general().then((m) => m.ping)), opts),
    /** GET prompt/get_alert: the administrator's banner. */
    alert: (opts: CallOptions = {}) => client.get('/prompt/get_alert', lazySchema(() => general().then((m) => m.alert)), opts),
    /** GET diagnostics: what the server runs with (the /test page). */
    diagnostics: (opts: CallOptions = {}) => client.get('/diagnostics', lazySchema(() => import('../contract/diagnostics').then((m) => m.diagnostics)), opts),
  };
}
/** The server-wide calls. */
export type GeneralApi = ReturnType<typeof createGeneralApi>;
