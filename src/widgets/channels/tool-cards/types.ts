// What the tool-card index hands each card: a leaf module, so the cards need not import the index.

/** What every tool card is given: the stored tool_result (its `data` is checked by the card's own schema). */
export interface ToolCardProps {
  name: string;
  ok: boolean;
  content: string;
  data: unknown;
}
