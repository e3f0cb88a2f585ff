// The document viewer's zoom: the scale chosen (fit the width, fit the page, or a number), the
// image's own scale, and what a fitting scale is measured against — the view's size and the
// measured page sizes.
import { computed, signal, type ReadonlySignal } from '@preact/signals-core';
import { stepZoom } from './viewer-geometry';
import { LETTER, type PageSize, type Zoom } from './viewer-types';

/** Vertical margins around a page (top + bottom), for the fit-page scale. */
const PAGE_GAP = 24;

/** The zoom of one viewer; `$isImage` says whether the document shown is an image (it zooms on its own scale). */
export function viewerZoom({ $isImage }: { $isImage: ReadonlySignal<boolean> }) {
  const $zoom = signal<Zoom>('fit-width');
  const $imageScale = signal<number | 'fit'>('fit');
  const $viewSize = signal({ width: 0, height: 0 });
  const $sizes = signal<ReadonlyMap<number, PageSize>>(new Map());

  const $firstSize = computed(() => $sizes.value.get(1) ?? LETTER);
  const $scale = computed(() => {
    const zoom = $zoom.value;
    if (typeof zoom === 'number') return zoom;
    const { width, height } = $viewSize.value;
    const first = $firstSize.value;
    const w = Math.max(100, width - 32) / first.width;
    if (zoom === 'fit-width' || height === 0) return Math.round(Math.min(w, 5) * 1000) / 1000;
    const h = Math.max(100, height - PAGE_GAP) / first.height;
    return Math.round(Math.min(w, h, 5) * 1000) / 1000;
  });
  const $zoomPercent = computed(() => {
    const image = $imageScale.value;
    return Math.round(($isImage.value ? (image === 'fit' ? 1 : image) : $scale.value) * 100);
  });
  /** Which fit button is pressed. */
  const $fit = computed<'fit-width' | 'fit-page' | null>(() => {
    if ($isImage.value) return $imageScale.value === 'fit' ? 'fit-width' : null;
    const zoom = $zoom.value;
    return typeof zoom === 'number' ? null : zoom;
  });

  /** One zoom step in (1) or out (-1): the image's scale for an image, else the pages'. */
  const step = (dir: 1 | -1) => {
    if ($isImage.peek()) {
      const s = $imageScale.peek();
      $imageScale.value = stepZoom(s === 'fit' ? 1 : s, dir);
    } else $zoom.value = stepZoom($scale.peek(), dir);
  };

  return {
    $zoom: $zoom as ReadonlySignal<Zoom>,
    $imageScale: $imageScale as ReadonlySignal<number | 'fit'>,
    $scale,
    $zoomPercent,
    $fit,
    $viewSize: $viewSize as ReadonlySignal<{ width: number; height: number }>,
    $sizes: $sizes as ReadonlySignal<ReadonlyMap<number, PageSize>>,
    $firstSize,

    /** A new document: no page measured yet, or only its first page. */
    measuredFirst(first?: PageSize) {
      $sizes.value = first ? new Map([[1, first]]) : new Map();
    },
    /** The scrolling box's size changed. */
    resized(width: number, height: number) {
      const cur = $viewSize.peek();
      if (cur.width !== width || cur.height !== height) $viewSize.value = { width, height };
    },
    /** Page `n` was measured. */
    pageSize(n: number, size: PageSize) {
      const prev = $sizes.peek().get(n);
      if (prev?.width === size.width && prev.height === size.height) return;
      $sizes.value = new Map($sizes.peek()).set(n, size);
    },

    zoomIn: () => step(1),
    zoomOut: () => step(-1),
    /** A zoom key: always the pages' scale. */
    stepPages(dir: 1 | -1) {
      $zoom.value = stepZoom($scale.peek(), dir);
    },
    fitWidth() {
      if ($isImage.peek()) $imageScale.value = 'fit';
      else $zoom.value = 'fit-width';
    },
    fitPage() {
      $zoom.value = 'fit-page';
    },
  };
}

/** The zoom part of a viewer. */
export type ViewerZoom = ReturnType<typeof viewerZoom>;
