/**
 * The history and conversation inside their card, by the element's own width (a container
 * query, so a narrow column on a wide page stacks too): side by side from 720px, else the
 * history above the conversation. Padding keeps the text off the card's border.
 */
export const layoutCss = `
.csai-root { container-type: inline-size; }
[part~="base"] { display: flex; flex-direction: column; gap: 1rem; padding: 1rem; }
[part~="history"] { border-bottom: 1px solid var(--csai-c-line); padding-bottom: 1rem; }
@container (min-width: 720px) {
  [part~="base"] { flex-direction: row; gap: 1.5rem; padding: 1.5rem; }
  [part~="history"] { width: 16rem; border-bottom: 0; padding-bottom: 0; border-right: 1px solid var(--csai-c-line); padding-right: 1.5rem; }
}
`;
