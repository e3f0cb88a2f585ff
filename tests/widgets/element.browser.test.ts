import { createCsaiElement } from '../../src/widgets/shared/element';
import { defineOnce } from '../../src/widgets/shared/define-once';
import { expect, mount, waitFor } from './harness';

describe('createCsaiElement', () => {
  describe('when the element code fails to load', () => {
    it('emits csai-error with code load_failed, and a later connection retries', async () => {
      let attempts = 0;
      const Broken = createCsaiElement({}, () => {
        attempts++;
        return Promise.reject(new Error('chunk 404'));
      });
      defineOnce('csai-test-broken', Broken);
      const seen: CustomEvent[] = [];
      const box = mount('');
      box.addEventListener('csai-error', (e) => seen.push(e));
      box.innerHTML = '<csai-test-broken></csai-test-broken>';
      await waitFor(() => seen.length === 1, 'csai-error');
      expect(seen[0]!.detail).to.deep.equal({ message: '组件加载失败，请检查网络后刷新页面', code: 'load_failed' });
      expect(seen[0]!.composed).to.equal(true);
      const el = box.firstElementChild!;
      el.remove();
      box.append(el);
      await waitFor(() => seen.length === 2, 'a second csai-error');
      expect(attempts).to.equal(2);
      box.remove();
    });
  });

  describe('defineOnce', () => {
    it('keeps the first definition and never throws', () => {
      class First extends HTMLElement {}
      class Second extends HTMLElement {}
      expect(defineOnce('csai-test-twice', First)).to.equal(true);
      expect(defineOnce('csai-test-twice', Second)).to.equal(false);
      expect(customElements.get('csai-test-twice')).to.equal(First);
      expect(defineOnce('not a valid tag', Second)).to.equal(false);
    });
  });
});
