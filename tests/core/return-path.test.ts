import { beforeEach, describe, expect, it } from 'vitest';
import { rememberReturnPath, takeReturnPath } from '../../src/host/session';

// Open redirect (tests/security/README.md): the page remembered for after sign-in is always a page of
// this site, however the path is spelt.
describe('the page to return to after signing in', () => {
  beforeEach(() => window.sessionStorage.clear());

  it('is never another origin: //host, backslashes, tabs, schemes and auth pages fall back to home', () => {
    const evil = ['//evil.example/x', '/\\evil.example', '/\\/evil.example', '/\t/evil.example', '/\n/evil.example', 'https://evil.example/', 'javascript:alert(1)', ' /knowledge', '/auth/sign-in'];
    for (const path of evil) {
      rememberReturnPath(path);
      expect(takeReturnPath(), JSON.stringify(path)).toBe('/');
      // Written straight into storage (another script, an old build): still refused when read.
      window.sessionStorage.setItem('csai:return_to', path);
      const taken = takeReturnPath();
      expect(new URL(taken, window.location.origin).origin, JSON.stringify(path)).toBe(window.location.origin);
      expect(taken, JSON.stringify(path)).toBe('/');
    }
  });

  it('keeps a page of the site with its query, once', () => {
    rememberReturnPath('/knowledge/abc?tab=shared');
    expect(takeReturnPath()).toBe('/knowledge/abc?tab=shared');
    expect(takeReturnPath()).toBe('/');
  });
});
