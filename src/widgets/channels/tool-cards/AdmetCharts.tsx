// The two pictures SwissADME shows beside its table, drawn as SVG from the numbers (no styles:
// geometry and colours are SVG attributes and twind classes, so a strict CSP is enough).
import { BOILED_EGG, RADAR_AXES, type AdmetMolecule } from '../../../contract/admet';

const RADAR = { size: 220, r: 72 };

/** Where a value sits on a radar axis, 0 (centre) to 1 (rim). */
const scale = (v: number, lo: number, hi: number) => Math.min(1, Math.max(0, (v - lo) / (hi - lo)));

const point = (axis: number, fraction: number) => {
  const angle = -Math.PI / 2 + (axis * 2 * Math.PI) / RADAR_AXES.length;
  const c = RADAR.size / 2;
  return [c + Math.cos(angle) * RADAR.r * fraction, c + Math.sin(angle) * RADAR.r * fraction] as const;
};

const polygon = (fractions: number[]) => fractions.map((f, i) => point(i, f).map((x) => x.toFixed(1)).join(',')).join(' ');

/** The bioavailability radar (Daina, Michielin & Zoete 2017): the molecule against the optimal band. */
export function BioavailabilityRadar({
  molecule,
  label,
  axisLabel = (key) => key,
  axisHint,
}: {
  molecule: AdmetMolecule;
  label: string;
  /** An axis's name in the interface's language (SwissADME's LIPO, SIZE … by default). */
  axisLabel?: (key: string) => string;
  /** An axis's tooltip: its abbreviation, what it measures and its optimal range. */
  axisHint?: (key: string) => string;
}) {
  const outer = RADAR_AXES.map((a) => scale(a.max, a.lo, a.hi));
  const inner = RADAR_AXES.map((a) => scale(a.min, a.lo, a.hi));
  const values = RADAR_AXES.map((a) => scale(molecule[a.field], a.lo, a.hi));
  return (
    <svg part="admet-radar" viewBox={`0 0 ${RADAR.size} ${RADAR.size}`} width={RADAR.size} height={RADAR.size} role="img" aria-label={label} className="max-w-full">
      {[0.25, 0.5, 0.75, 1].map((f) => (
        <polygon key={f} points={polygon(RADAR_AXES.map(() => f))} fill="none" stroke="currentColor" strokeOpacity="0.2" className="text-muted" />
      ))}
      {/* The optimal range: a band between each axis's lower and upper limit. */}
      <polygon points={polygon(outer)} fill="currentColor" fillOpacity="0.25" className="text-danger" />
      <polygon points={polygon(inner)} fill="currentColor" className="text-surface" />
      <polygon part="admet-radar-molecule" points={polygon(values)} fill="none" stroke="currentColor" strokeWidth="2" className="text-danger" />
      {RADAR_AXES.map((a, i) => {
        const [x, y] = point(i, 1.22);
        return (
          <text key={a.key} x={x} y={y} textAnchor="middle" dominantBaseline="middle" fontSize="10" fill="currentColor" className="text-ink" data-axis={a.key}>
            {axisHint && <title>{axisHint(a.key)}</title>}
            {axisLabel(a.key)}
          </text>
        );
      })}
    </svg>
  );
}

const EGG = { w: 320, h: 240, pad: 30, x0: -10, x1: 200, y0: -4, y1: 8 };
const ex = (tpsa: number) => EGG.pad + ((tpsa - EGG.x0) / (EGG.x1 - EGG.x0)) * (EGG.w - EGG.pad - 8);
const ey = (wlogp: number) => EGG.h - EGG.pad - ((wlogp - EGG.y0) / (EGG.y1 - EGG.y0)) * (EGG.h - EGG.pad - 8);
const outline = (pts: readonly (readonly [number, number])[]) => pts.map(([x, y]) => `${ex(x).toFixed(1)},${ey(y).toFixed(1)}`).join(' ');

/** The BOILED-Egg (Daina & Zoete 2016): every molecule as a numbered point over the two ellipses. */
export function BoiledEgg({ molecules, label }: { molecules: AdmetMolecule[]; label: string }) {
  return (
    <svg part="admet-egg" viewBox={`0 0 ${EGG.w} ${EGG.h}`} width={EGG.w} height={EGG.h} role="img" aria-label={label} className="max-w-full">
      <rect x={EGG.pad} y="8" width={EGG.w - EGG.pad - 8} height={EGG.h - EGG.pad - 8} fill="currentColor" fillOpacity="0.15" className="text-muted" />
      <polygon part="admet-egg-white" points={outline(BOILED_EGG.gi.outline)} fill="currentColor" className="text-surface" stroke="currentColor" strokeOpacity="0.3" />
      <polygon part="admet-egg-yolk" points={outline(BOILED_EGG.bbb.outline)} fill="currentColor" fillOpacity="0.45" className="text-warning" />
      {[0, 50, 100, 150, 200].map((x) => (
        <text key={`x${x}`} x={ex(x)} y={EGG.h - EGG.pad + 14} textAnchor="middle" fontSize="9" fill="currentColor" className="text-muted">
          {x}
        </text>
      ))}
      {[-4, -2, 0, 2, 4, 6, 8].map((y) => (
        <text key={`y${y}`} x={EGG.pad - 4} y={ey(y)} textAnchor="end" dominantBaseline="middle" fontSize="9" fill="currentColor" className="text-muted">
          {y}
        </text>
      ))}
      <text x={EGG.w / 2} y={EGG.h - 3} textAnchor="middle" fontSize="10" fill="currentColor" className="text-ink">
        TPSA (Å²)
      </text>
      <text x="9" y={EGG.h / 2} textAnchor="middle" fontSize="10" fill="currentColor" className="text-ink" transform={`rotate(-90 9 ${EGG.h / 2})`}>
        WLOGP
      </text>
      {molecules.map((m, i) => {
        const x = ex(Math.min(EGG.x1, Math.max(EGG.x0, m.tpsa_sp)));
        const y = ey(Math.min(EGG.y1, Math.max(EGG.y0, m.wlogp)));
        return (
          <g key={i} part="admet-egg-point" data-gi={m.gi_absorption} data-bbb={String(m.bbb_permeant)}>
            <circle cx={x} cy={y} r="4" fill="currentColor" className="text-accent" />
            <text x={x + 6} y={y - 5} fontSize="9" fill="currentColor" className="text-ink">
              {i + 1}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
