// Finds Debian's Chromium for browser tests: CHROMIUM_PATH, /usr/bin/chromium, or installs it
// with apt-get when running as root. Never downloads a browser build of its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--disable-dev-shm-usage',
];

export function chromiumPath({ install = false } = {}) {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((p) => fs.existsSync(p));
  if (found) return found;
  if (install && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get')) {
    console.log('Installing Chromium and a Chinese font from Debian (apt-get install -y chromium fonts-wqy-microhei)…');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-wqy-microhei'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (fs.existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  }
  throw new Error('Chromium not found. Install it (Debian: `sudo apt-get install -y chromium`) or set CHROMIUM_PATH.');
}
