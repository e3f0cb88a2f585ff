import { useEffect, useRef, type HTMLAttributes, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { autoUpdate, flip, offset, shift, useFloating, type Placement } from '@floating-ui/react';

export interface FloatingLayerProps extends HTMLAttributes<HTMLDivElement> {
  /** The element the layer is placed next to. */
  reference: HTMLElement | null;
  placement: Placement;
  /** The gap to the reference element (px). */
  gap: number;
  /** Runs once the layer and its content are in the document (e.g. to focus the first item). */
  onMount?: (node: HTMLDivElement) => void;
  children: ReactNode;
}

/**
 * A layer in document.body next to `reference`, positioned by Floating UI (flip and shift keep it
 * on screen). Tooltips and menus load this module when they first open, so Floating UI stays out
 * of the first load.
 */
export default function FloatingLayer({ reference, placement, gap, onMount, children, style, ...rest }: FloatingLayerProps) {
  const node = useRef<HTMLDivElement | null>(null);
  const { refs, floatingStyles } = useFloating({
    open: true,
    placement,
    elements: { reference },
    whileElementsMounted: autoUpdate,
    middleware: [offset(gap), flip(), shift({ padding: 8 })],
  });
  useEffect(() => {
    if (node.current) onMount?.(node.current);
    // Only on mount: a re-render must not run it again.
  }, []);
  return createPortal(
    <div
      {...rest}
      ref={(el) => {
        node.current = el;
        refs.setFloating(el);
      }}
      style={{ ...style, ...floatingStyles }}
    >
      {children}
    </div>,
    document.body,
  );
}
