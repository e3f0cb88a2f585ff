// Messages between <csai-chem-editor> and its Ketcher frame (ketcher.html), by postMessage.
import { z } from 'zod';

/** Frame → element. */
export const frameMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('csai-ketcher-ready') }),
  z.object({ type: z.literal('csai-ketcher-smiles'), id: z.number(), smiles: z.string().optional(), error: z.string().optional() }),
  z.object({ type: z.literal('csai-ketcher-failed'), message: z.string() }),
]);
export type FrameMessage = z.infer<typeof frameMessage>;

/** Element → frame. */
export const editorMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('csai-ketcher-get'), id: z.number() }),
  z.object({ type: z.literal('csai-ketcher-set'), smiles: z.string().max(2000) }),
]);
export type EditorMessage = z.infer<typeof editorMessage>;
