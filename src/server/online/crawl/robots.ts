import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../net/safe-fetch';

/**
 * robots.txt (RFC 9309): the groups of a file, the rules of the group that names our product
 * token (else `*`), longest match wins, Allow wins a tie. Fetched once per origin and kept for an
 * hour; a missing file (4xx) allows everything, an unreachable one (5xx, network) allows nothing,
 * as the RFC asks.
 */

/** The product token our requests carry and robots.txt groups may name. */
export const CRAWLER_TOKEN = 'CSAI';
export const CRAWLER_USER_AGENT = `Mozilla/5.0 (compatible; ${CRAWLER_TOKEN}/1.0; research assistant)`;

interface Rule {
  allow: boolean;
  pattern: string;
  regex: RegExp;
}

export interface RobotsRules {
  /** Whether the path (with query) may be fetched. */
  allows(pathAndQuery: string): boolean;
  /**
   * Set when robots.txt itself could not be read (the site did not answer, or answered with a
   * server error): then nothing is allowed (RFC 9309 §2.3.1.4), and the reason is the site, not its rules.
   */
  unreachable?: boolean;
}

const ALLOW_ALL: RobotsRules = { allows: () => true };
const DENY_ALL: RobotsRules = { allows: () => false, unreachable: true };

/** A path pattern as a regular expression: `*` any run of characters, a final `$` the end. */
function patternRegex(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** Percent-encoding normalised so `/a%7eb` and `/a~b` compare alike (RFC 9309 §2.2.2). */
function normalisePath(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (m, hex: string) => {
    const c = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(c) ? c : m.toUpperCase();
  });
}

/** Parses a robots.txt for one product token. */
export function parseRobots(text: string, token = CRAWLER_TOKEN): RobotsRules {
  const groups: Array<{ agents: string[]; rules: Rule[] }> = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (key === 'user-agent') {
      if (!lastWasAgent || !current) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
    } else if (key === 'allow' || key === 'disallow') {
      lastWasAgent = false;
      if (!current) continue;
      // An empty Disallow allows everything: it adds no rule.
      if (!value) continue;
      const pattern = normalisePath(value);
      current.rules.push({ allow: key === 'allow', pattern, regex: patternRegex(pattern) });
    } else {
      lastWasAgent = false;
    }
  }
  const me = token.toLowerCase();
  const mine = groups.filter((g) => g.agents.some((a) => a !== '*' && me.startsWith(a)));
  const chosen = mine.length ? mine : groups.filter((g) => g.agents.includes('*'));
  const rules = chosen.flatMap((g) => g.rules);
  if (!rules.length) return ALLOW_ALL;
  return {
    allows(pathAndQuery) {
      const path = normalisePath(pathAndQuery || '/');
      let best: Rule | undefined;
      for (const rule of rules) {
        if (!rule.regex.test(path)) continue;
        if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
      }
      return best ? best.allow : true;
    },
  };
}

/** RFC 9309 §2.5: crawlers must parse at least 500 KiB. */
const MAX_ROBOTS_BYTES = 512 * 1024;
const TTL_MS = 60 * 60_000;
const RETRY_MS = 60_000;
const MAX_ORIGINS = 500;

export interface RobotsCache {
  /** The rules of the URL's origin, fetched through the SSRF-safe client when not cached. */
  rulesFor(url: URL, signal?: AbortSignal): Promise<RobotsRules>;
}

/** A per-origin robots.txt cache (at most 500 origins, an hour each). */
export function robotsCache(fetchOptions: Pick<SafeFetchOptions, 'isAllowedAddress' | 'resolve'> = {}, timeoutMs = 5000): RobotsCache {
  const cache = new Map<string, { until: number; rules: Promise<RobotsRules> }>();
  const load = async (origin: string, signal?: AbortSignal): Promise<RobotsRules> => {
    try {
      const res = await safeFetch(`${origin}/robots.txt`, {
        ...fetchOptions,
        maxBytes: MAX_ROBOTS_BYTES,
        timeoutMs,
        headers: { 'user-agent': CRAWLER_USER_AGENT, accept: 'text/plain, */*' },
        ...(signal ? { signal } : {}),
      });
      if (res.status >= 200 && res.status < 300) return parseRobots(res.text());
      if (res.status >= 400 && res.status < 500) return ALLOW_ALL;
      return unreachable(origin);
    } catch (err) {
      if (signal?.aborted) throw err;
      if (err instanceof SafeFetchError && (err.code === 'blocked_address' || err.code === 'blocked_scheme' || err.code === 'invalid_url')) throw err;
      // Unreachable (or larger than we read): nothing is assumed allowed.
      return unreachable(origin);
    }
  };
  // An unreachable robots.txt is asked again after a minute, not an hour.
  const unreachable = (origin: string) => {
    const held = cache.get(origin);
    if (held) held.until = Date.now() + RETRY_MS;
    return DENY_ALL;
  };
  return {
    rulesFor(url, signal) {
      const origin = url.origin;
      const held = cache.get(origin);
      if (held && Date.now() < held.until) return held.rules;
      cache.delete(origin);
      const entry = { until: Date.now() + TTL_MS, rules: Promise.resolve(ALLOW_ALL) };
      cache.set(origin, entry);
      const rules = load(origin, signal);
      entry.rules = rules;
      // A failed or stopped fetch is not remembered.
      rules.catch(() => cache.delete(origin));
      while (cache.size > MAX_ORIGINS) cache.delete(cache.keys().next().value!);
      return rules;
    },
  };
}
