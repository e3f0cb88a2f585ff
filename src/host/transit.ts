/**
 * SPEC §2: links carrying `#activate_transit=TOKEN` or `#pswd_transit=TOKEN` go to the
 * activation or reset page with that token. Returns the target path, or null.
 */
export function transitRedirect(hash: string): string | null {
  const match = /^#(activate_transit|pswd_transit)=([A-Za-z0-9_-]{1,200})$/.exec(hash);
  if (!match) return null;
  const page = match[1] === 'activate_transit' ? '/auth/activate-transit' : '/auth/reset-password';
  return `${page}?token=${encodeURIComponent(match[2]!)}`;
}
