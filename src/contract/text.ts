/**
 * Invisible formatting characters that make a name display differently from what it is
 * (issue 16 #6): bidi embeddings, overrides and isolates (`\u202efdp.exe` shows as `exe.pdf`),
 * directional marks, zero-width spaces and joiners, the word joiner and invisible operators, the
 * byte-order mark and the Mongolian vowel separator.
 */
export const INVISIBLE_FORMAT = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;

/** Whether a name is free of control characters and invisible formatting (see {@link INVISIBLE_FORMAT}). */
export const isPlainName = (s: string) => !/[\u0000-\u001f\u007f-\u009f]/.test(s) && !new RegExp(INVISIBLE_FORMAT.source, 'u').test(s);

/** The name without control characters and invisible formatting, NFC-normalised and trimmed. */
export const plainName = (s: string) => s.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').replace(INVISIBLE_FORMAT, '').trim();
