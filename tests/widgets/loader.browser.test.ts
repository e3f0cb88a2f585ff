// The embed loader: one script defines every element; an element's view loads on first use.
import { expect, failOnConsoleErrors, mount, part, statusRoutes, waitFor } from './harness';
import { fakeApi } from './fake-api';

describe('the embed loader', () => {
  failOnConsoleErrors();
  let restore: () => void = () => {};
  afterEach(() => restore());

  it('upgrades elements that were on the page before it ran', async () => {
    restore = fakeApi(statusRoutes()).restore;
    const box = mount('<csai-status lang="en"></csai-status>');
    const el = box.querySelector('csai-status')!;
    expect(customElements.get('csai-status')).to.equal(undefined);
    expect(el.shadowRoot).to.equal(null);

    const { elementRegistry } = await import('../../src/widgets/loader');
    expect(customElements.get('csai-status')).to.equal(elementRegistry['csai-status']);
    await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'the upgraded element');
    expect(part(el, 'label')!.textContent).to.equal('Service available');
    box.remove();
  });

  it('defines every tag of its registry', async () => {
    const { elementRegistry } = await import('../../src/widgets/loader');
    for (const tag of Object.keys(elementRegistry)) expect(customElements.get(tag), tag).to.not.equal(undefined);
  });

  it('renders nothing and calls nothing until an element is connected', async () => {
    await import('../../src/widgets/loader');
    const fake = fakeApi(statusRoutes());
    restore = fake.restore;
    const el = document.createElement('csai-status');
    expect(el.shadowRoot?.mode).to.equal('open');
    await new Promise((r) => setTimeout(r, 0));
    expect(el.shadowRoot!.childNodes.length).to.equal(0);
    expect(fake.urls()).to.deep.equal([]);
    document.body.append(el);
    await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'the first render');
    expect(fake.urls().length).to.equal(2);
    el.remove();
  });

  it('renders again when an element is moved, and stops when removed', async () => {
    await import('../../src/widgets/loader');
    restore = fakeApi(statusRoutes()).restore;
    const a = mount('<csai-status></csai-status>');
    const b = mount('');
    const el = a.querySelector('csai-status')!;
    await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'the first render');
    b.append(el);
    await waitFor(() => part(el, 'pill')?.dataset.state === 'online', 'the render after moving');
    el.remove();
    // Unmounted once the removing task's script is over (a move within one task keeps the view).
    await waitFor(() => el.shadowRoot!.childNodes.length === 0, 'the unmount after removal');
    a.remove();
    b.remove();
  });
});
