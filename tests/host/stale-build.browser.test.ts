import { reloadOnStaleBuild, STALE_BUILD_RELOAD_GAP_MS, type StaleBuildWindow } from '../../src/host/shell/stale-build';
import { expect } from '../core/harness';

/** A window stand-in: real events, a storage map, a counted reload, a switchable network. */
function fakeWindow() {
  const target = new EventTarget();
  const store = new Map<string, string>();
  const win = {
    reloads: 0,
    online: true,
    addEventListener: (type: string, fn: (e: Event) => void) => target.addEventListener(type, fn),
    removeEventListener: (type: string, fn: (e: Event) => void) => target.removeEventListener(type, fn),
    sessionStorage: { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) },
    location: { reload: () => void win.reloads++ },
    navigator: { get onLine() { return win.online; } },
  };
  /** What Vite's preload helper does when a chunk fails: a cancelable event; not cancelled → the import fails. */
  const chunkFails = () => {
    const event = new Event('vite:preloadError', { cancelable: true });
    target.dispatchEvent(event);
    return { reloaded: event.defaultPrevented };
  };
  return { win: win satisfies StaleBuildWindow, chunkFails };
}

describe('a page opened before a rebuild', () => {
  it('reloads once when a code chunk of the old build is gone, not again right after', () => {
    const { win, chunkFails } = fakeWindow();
    let t = 1_000_000;
    const stop = reloadOnStaleBuild(win, () => t);
    expect(chunkFails()).to.deep.equal({ reloaded: true });
    expect(win.reloads).to.equal(1);
    // The reloaded page fails again at once (the chunk is really missing): the error shows instead of a loop.
    t += 1000;
    expect(chunkFails()).to.deep.equal({ reloaded: false });
    expect(win.reloads).to.equal(1);
    // Much later (another rebuild): one more reload.
    t += STALE_BUILD_RELOAD_GAP_MS * 3;
    expect(chunkFails()).to.deep.equal({ reloaded: true });
    expect(win.reloads).to.equal(2);
    stop();
    t += STALE_BUILD_RELOAD_GAP_MS * 3;
    expect(chunkFails()).to.deep.equal({ reloaded: false });
    expect(win.reloads).to.equal(2);
  });

  it('does not reload while offline (the chunk is not gone, the network is)', () => {
    const { win, chunkFails } = fakeWindow();
    win.online = false;
    const stop = reloadOnStaleBuild(win, () => 5_000_000);
    expect(chunkFails()).to.deep.equal({ reloaded: false });
    expect(win.reloads).to.equal(0);
    stop();
  });
});
