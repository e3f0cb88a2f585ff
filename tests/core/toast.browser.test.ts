import {
  bindToastHotkey,
  createToastStore,
  isSwipeDismiss,
  TOAST_DURATION,
  TOAST_REMOVE_DELAY,
  type ToastClock,
} from '../../src/core/toast';
import { expect } from './harness';

/** A clock the test advances by hand. */
function manualClock() {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: ToastClock = {
    setTimeout: (fn, ms) => {
      timers.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, t] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (t.at <= now && timers.has(id)) {
        timers.delete(id);
        t.fn();
      }
    }
  };
  return { clock, advance };
}

describe('the toast store', () => {
  it('holds one toast at a time: a new one replaces the old', () => {
    const store = createToastStore(manualClock().clock);
    store.toast({ title: '第一条' });
    store.toast({ title: '登出成功' });
    expect(store.$toasts.value.map((t) => t.title)).to.deep.equal(['登出成功']);
  });

  it('closes itself after 5000 ms and is removed 1,000,000 ms later', () => {
    const { clock, advance } = manualClock();
    const store = createToastStore(clock);
    store.toast({ title: '提示', variant: 'destructive' });
    advance(TOAST_DURATION - 1);
    expect(store.$toasts.value[0]?.open).to.equal(true);
    advance(1);
    expect(store.$toasts.value[0]?.open).to.equal(false);
    advance(TOAST_REMOVE_DELAY - 1);
    expect(store.$toasts.value).to.have.length(1);
    advance(1);
    expect(store.$toasts.value).to.have.length(0);
  });

  it('can be updated and dismissed through its handle', () => {
    const store = createToastStore(manualClock().clock);
    const handle = store.toast({ title: '上传中' });
    handle.update({ title: '完成', description: '文件已添加到知识库' });
    expect(store.$toasts.value[0]).to.include({ title: '完成', description: '文件已添加到知识库', variant: 'default' });
    handle.dismiss();
    expect(store.$toasts.value[0]?.open).to.equal(false);
    store.remove(handle.id);
    expect(store.$toasts.value).to.have.length(0);
  });

  it('dismisses on a swipe to the right past 50 px only', () => {
    expect(isSwipeDismiss(51)).to.equal(true);
    expect(isSwipeDismiss(50)).to.equal(false);
    expect(isSwipeDismiss(-80)).to.equal(false);
  });

  it('F8 moves focus to the notification region', () => {
    const region = document.createElement('ol');
    region.tabIndex = -1;
    document.body.append(region);
    const unbind = bindToastHotkey(document, () => region);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', bubbles: true }));
    expect(document.activeElement).to.equal(region);
    unbind();
    region.blur();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', bubbles: true }));
    expect(document.activeElement).to.not.equal(region);
    region.remove();
  });
});
