import { createCsaiElement } from '../../src/widgets/shared/element';
import { defineOnce } from '../../src/widgets/shared/define-once';
import { reactView } from '../../src/widgets/shared/react-view';
import { expect, mount, part, waitFor } from './harness';

/** Runs `fn` with console.warn captured (the expected warnings would clutter the run). */
async function capturingWarnings(fn: () => void | Promise<void>) {
  const original = console.warn;
  const warnings: string[] = [];
  console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
  try {
    await fn();
  } finally {
    console.warn = original;
  }
  return warnings;
}

describe('createCsaiElement', () => {
  describe('when the element code fails to load', () => {
    it('emits csai-error with code load_failed, warns, and a later connection retries', async () => {
      let attempts = 0;
      const seen: CustomEvent[] = [];
      const box = mount('');
      const warnings = await capturingWarnings(async () => {
        const Broken = createCsaiElement({}, () => {
          attempts++;
          return Promise.reject(new Error('chunk 404'));
        });
        defineOnce('csai-test-broken', Broken);
        box.addEventListener('csai-error', (e) => seen.push(e));
        box.innerHTML = '<csai-test-broken></csai-test-broken>';
        await waitFor(() => seen.length === 1, 'csai-error');
        const el = box.firstElementChild!;
        el.remove();
        box.append(el);
        await waitFor(() => seen.length === 2, 'a second csai-error');
      });
      expect(seen[0]!.detail).to.deep.equal({ message: '组件加载失败，请检查网络后刷新页面', code: 'load_failed' });
      expect(seen[0]!.composed).to.equal(true);
      expect(seen[0]!.bubbles).to.equal(true);
      expect(attempts).to.equal(2);
      expect(warnings.length).to.equal(2);
      expect(warnings[0]).to.contain('chunk 404');
      box.remove();
    });
  });

  describe('when a view throws while rendering', () => {
    it('shows a notice in the element and emits csai-error render_failed', async () => {
      const Exploding = (): never => {
        throw new Error('boom');
      };
      defineOnce('csai-test-exploding', createCsaiElement({}, async () => ({ view: reactView(Exploding) })));
      const seen: CustomEvent[] = [];
      const box = mount('');
      box.addEventListener('csai-error', (e) => seen.push(e));
      const original = console.error;
      const errors: string[] = [];
      console.error = (...args: unknown[]) => void errors.push(args.map(String).join(' '));
      try {
        box.innerHTML = '<csai-test-exploding></csai-test-exploding>';
        await waitFor(() => seen.length > 0, 'csai-error');
      } finally {
        console.error = original;
      }
      const el = box.firstElementChild!;
      expect(seen[0]!.detail).to.deep.equal({ message: '组件出错了，请刷新页面后重试', code: 'render_failed' });
      expect(part(el, 'error')!.textContent).to.equal('组件出错了，请刷新页面后重试');
      expect(part(el, 'error')!.getAttribute('role')).to.equal('alert');
      expect(errors.some((e) => e.includes('boom'))).to.equal(true);
      box.remove();
    });
  });

  describe('defineOnce', () => {
    it('keeps the first definition and never throws', async () => {
      class First extends HTMLElement {}
      class Second extends HTMLElement {}
      const warnings = await capturingWarnings(() => {
        expect(defineOnce('csai-test-twice', First)).to.equal(true);
        expect(defineOnce('csai-test-twice', Second)).to.equal(false);
        expect(defineOnce('not a valid tag', Second)).to.equal(false);
      });
      expect(customElements.get('csai-test-twice')).to.equal(First);
      expect(warnings).to.have.length(1);
      expect(warnings[0]).to.contain('not a valid tag');
    });
  });
});
