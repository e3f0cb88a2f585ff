import { useEffect, useState } from 'react';
import type { AuthOptions } from '../../../contract/auth';
import { createAuthApi } from '../../../core/auth-api';
import { api } from '../../../core/page';

let asked: Promise<AuthOptions | null> | undefined;

/**
 * How people sign in here (GET /auth/options, asked once per page load): whether sign-up is open and
 * whether directory (LDAP) sign-in is on. null while loading, or when the call failed (pages then
 * show their usual form; the server still refuses what is turned off).
 */
export function useAuthOptions(): AuthOptions | null {
  const [options, setOptions] = useState<AuthOptions | null>(null);
  useEffect(() => {
    let live = true;
    asked ??= createAuthApi(api())
      .options({ quiet: true, redirect: false })
      .catch(() => {
        asked = undefined;
        return null;
      });
    void asked.then((o) => {
      if (live) setOptions(o);
    });
    return () => {
      live = false;
    };
  }, []);
  return options;
}
