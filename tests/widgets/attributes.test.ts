import { describe, expect, it } from 'vitest';
import { readAttributes } from '../../src/widgets/shared/element';
import { emit } from '../../src/widgets/shared/events';
import { apiOriginOf, resolveTheme } from '../../src/widgets/shared/react-view';
import { translator } from '../../src/widgets/shared/i18n';
import { statusStrings } from '../../src/widgets/status/status.strings';
import { addStrings } from '../../src/widgets/shared/i18n';

const el = (html: string) => {
  const box = document.createElement('div');
  box.innerHTML = html;
  return box.firstElementChild!;
};
const spec = { compact: 'boolean', apiBase: 'string', size: 'number' } as const;

describe('reading attributes', () => {
  it('treats an empty boolean attribute as on and "false" as off', () => {
    expect(readAttributes(el('<x-a compact></x-a>'), spec).compact).toBe(true);
    expect(readAttributes(el('<x-a compact="true"></x-a>'), spec).compact).toBe(true);
    expect(readAttributes(el('<x-a compact="FALSE"></x-a>'), spec).compact).toBe(false);
    expect(readAttributes(el('<x-a></x-a>'), spec).compact).toBe(false);
  });

  it('maps kebab-case attributes to camelCase props and drops blank strings', () => {
    expect(readAttributes(el('<x-a api-base=" https://x.example "></x-a>'), spec).apiBase).toBe('https://x.example');
    expect(readAttributes(el('<x-a api-base="  "></x-a>'), spec).apiBase).toBeUndefined();
  });

  it('parses numbers and ignores what is not one', () => {
    expect(readAttributes(el('<x-a size="12.5"></x-a>'), spec).size).toBe(12.5);
    expect(readAttributes(el('<x-a size="big"></x-a>'), spec).size).toBeUndefined();
    expect(readAttributes(el('<x-a size=""></x-a>'), spec).size).toBeUndefined();
  });
});

describe('common attribute values', () => {
  it('resolves the theme to light unless it says dark', () => {
    expect(resolveTheme('dark')).toBe('dark');
    expect(resolveTheme(' DARK ')).toBe('dark');
    expect(resolveTheme('purple')).toBe('light');
    expect(resolveTheme(undefined)).toBe('light');
  });

  it('drops trailing slashes of api-base', () => {
    expect(apiOriginOf('https://csai.example.com//')).toBe('https://csai.example.com');
    expect(apiOriginOf(undefined)).toBe('');
  });
});

describe('element strings', () => {
  addStrings('status', statusStrings);
  it('speaks Chinese by default and for unknown languages, English for any en tag', () => {
    expect(translator('status', undefined)('online')).toBe('服务正常');
    expect(translator('status', 'fr')('online')).toBe('服务正常');
    expect(translator('status', 'zh-TW')('online')).toBe('服务正常');
    expect(translator('status', 'en-GB')('online')).toBe('Service available');
  });

  it('has every Chinese string in English too', () => {
    expect(Object.keys(statusStrings.en).sort()).toEqual(Object.keys(statusStrings.zh).sort());
  });
});

describe('emit', () => {
  it('dispatches a bubbling, composed CustomEvent with the detail', () => {
    const target = document.createElement('div');
    document.body.append(target);
    let seen: CustomEvent | undefined;
    document.body.addEventListener('csai-error', (e) => (seen = e), { once: true });
    emit(target, 'csai-error', { message: '出错了', code: 'x' });
    expect(seen?.bubbles).toBe(true);
    expect(seen?.composed).toBe(true);
    expect(seen?.detail).toEqual({ message: '出错了', code: 'x' });
    target.remove();
  });
});
