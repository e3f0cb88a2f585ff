import { titleText } from './local-engine';

/**
 * The model's streamed answer with every source title it copies made plain text (titleText):
 * a document or page title is written by whoever uploaded or published it, and a model that
 * repeats `《![](http://…) name.pdf》` must not turn it into an image or a link in the answer
 * of everyone the folder is shared with. Titles that read the same escaped pass
 * unchanged; the end of a chunk that may start a title is held until the next chunk decides.
 */
export function titleGuard(titles: Iterable<string>, emit: (text: string) => void) {
  const risky = new Map<string, string>();
  const add = (list: Iterable<string>) => {
    for (const title of list) {
      const t = title.trim();
      if (t && titleText(t) !== t) risky.set(t, titleText(t));
    }
  };
  add(titles);
  let held = '';

  /** Complete titles in `text` escaped, longest first so a title inside another is not cut. */
  const escaped = (text: string) => {
    let out = text;
    for (const [title, safe] of [...risky].sort((a, b) => b[0].length - a[0].length)) out = out.split(title).join(safe);
    return out;
  };

  /** Where the tail of `text` could be the start of a title (text.length when it cannot). */
  const holdFrom = (text: string) => {
    for (let i = Math.max(0, text.length - Math.max(0, ...[...risky.keys()].map((t) => t.length - 1))); i < text.length; i++) {
      const tail = text.slice(i);
      for (const title of risky.keys()) if (title.startsWith(tail)) return i;
    }
    return text.length;
  };

  return {
    add,
    push(text: string) {
      if (!risky.size) {
        emit(text);
        return;
      }
      const all = escaped(held + text);
      const cut = holdFrom(all);
      held = all.slice(cut);
      if (cut > 0) emit(all.slice(0, cut));
    },
    /** The held text, at the end of a round. */
    end() {
      if (held) emit(held);
      held = '';
    },
  };
}
