/** `text` on one line, cut to `max` characters (code points) with an ellipsis. */
export const cut = (text: string, max: number) => {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
};
