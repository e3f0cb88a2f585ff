import { useEffect, useRef } from 'react';
import '../../molecule/molecule.element';

/** A structure drawn by <csai-molecule> (the drawing is fetched and cached by that element). */
export function MoleculePicture({ smiles }: { smiles: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = document.createElement('csai-molecule');
    el.setAttribute('smiles', smiles);
    el.setAttribute('width', '240');
    el.setAttribute('height', '180');
    ref.current?.replaceChildren(el);
    return () => el.remove();
  }, [smiles]);
  return <div ref={ref} className="max-w-[260px]" />;
}
