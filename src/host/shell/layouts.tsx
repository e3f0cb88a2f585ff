import type { ReactNode } from 'react';
import { AppShell } from './AppShell';

/** SPEC §2: the blank layout: the page alone, full height. */
export function BlankLayout({ children }: { children: ReactNode }) {
  return <div className="layout-blank">{children}</div>;
}

/** SPEC §2: the default layout: the app frame with sidebar around the page. */
export function DefaultLayout({ children }: { children: ReactNode }) {
  return <AppShell>{children}</AppShell>;
}

/** The layouts a route may name. */
export const layouts = { blank: BlankLayout, default: DefaultLayout } as const;
export type LayoutName = keyof typeof layouts;
