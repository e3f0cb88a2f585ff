import { useEffect, useRef } from 'react';
import { useHost } from '../../shared/host-context';

// <csai-molecule> is defined by the loader (widgets/csai.js). Defined here too, dynamically (for a
// card shown without the loader, as in its tests): a static import would split the element out of the
// loader's chunk and make the loader larger for every page.
void import('../../molecule/define-elements');

/** A structure drawn by <csai-molecule> (the drawing is fetched and cached by that element). */
export function MoleculePicture({ smiles }: { smiles: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const { lang } = useHost();
  useEffect(() => {
    const el = document.createElement('csai-molecule');
    el.setAttribute('smiles', smiles);
    if (lang) el.setAttribute('lang', lang);
    el.setAttribute('width', '240');
    el.setAttribute('height', '180');
    ref.current?.replaceChildren(el);
    return () => el.remove();
  }, [smiles, lang]);
  return <div ref={ref} className="max-w-[260px]" />;
}
