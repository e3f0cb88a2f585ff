/**
 * Invisible formatting characters that make a name display differently from what it is:
 * bidi embeddings, overrides and isolates (`\u202efdp.exe` shows as `exe.pdf`),
 * directional marks, zero-width spaces and joiners, the word joiner and invisible operators, the
 * byte-order mark and the Mongolian vowel separator; and the other characters that
 * show as nothing or break the line: the soft hyphen, the combining grapheme joiner, the Hangul
 * fillers (U+115F, U+1160, U+3164, U+FFA0), the Khmer inherent vowels, the Mongolian free
 * variation selectors, the line and paragraph separators, the deprecated format controls
 * U+206A–U+206F, the Braille blank, the interlinear annotation marks, the musical formatting
 * controls and the tag characters (U+E0000–U+E007F).
 */
export const INVISIBLE_FORMAT =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\u2800\u3164\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}]/gu;

/** Whether a name is free of control characters and invisible formatting (see {@link INVISIBLE_FORMAT}). */
export const isPlainName = (s: string) => !/[\u0000-\u001f\u007f-\u009f]/.test(s) && !new RegExp(INVISIBLE_FORMAT.source, 'u').test(s);

/** The name without control characters and invisible formatting, NFC-normalised and trimmed. */
export const plainName = (s: string) => s.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(INVISIBLE_FORMAT, '').trim();

/** Line breaks a text box can hold: CR/LF, vertical tab, form feed, NEL and the Unicode line and paragraph separators. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
/** A Markdown code fence line (```python, ~~~) says nothing about the question. */
const FENCE = /^(`{3,}|~{3,})[\w+#.-]*$/;

/**
 * The title of a conversation started by a question: its first line with text
 * (code fences skipped), tabs as spaces, control characters and invisible formatting removed,
 * cut to `max` code points (a surrogate pair is never split). '' when no line has any text.
 * @example conversationTitle('\n```python\nprint(1)\n```', 50) // 'print(1)'
 */
export function conversationTitle(text: string, max: number): string {
  for (const raw of text.split(LINE_BREAK)) {
    const line = plainName(raw.replace(/\t/g, ' ')).replace(/\s+/g, ' ');
    if (line && !FENCE.test(line)) return [...line].slice(0, max).join('').trim();
  }
  return '';
}
