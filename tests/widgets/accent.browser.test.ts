import { attachStyles } from '../../src/widgets/shared/styles';
import { expect } from './harness';

// Native controls inside the elements (the deep-research step bar, upload bars, checkboxes) take the
// page's accent, not Chromium's own green/blue.
describe('native controls in the accent colour', () => {
  it('a <progress> inside an element follows --csai-accent, in the light and the dark theme', () => {
    const host = document.createElement('div');
    host.style.setProperty('--csai-accent', 'rgb(15, 118, 110)');
    document.body.append(host);
    const root = host.attachShadow({ mode: 'open' });
    root.innerHTML = '<div class="csai-root"><progress max="4" value="2"></progress></div><div class="csai-root" data-theme="dark"><progress max="4" value="2"></progress></div>';
    const detach = attachStyles(root);
    const [light, dark] = Array.from(root.querySelectorAll('progress'));
    expect(getComputedStyle(light!).accentColor).to.equal('rgb(15, 118, 110)');
    expect(getComputedStyle(dark!).accentColor).to.equal('rgb(15, 118, 110)');
    detach();
    host.remove();
  });
});
