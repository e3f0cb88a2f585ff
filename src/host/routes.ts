import { lazy, type ComponentType } from 'react';
import HomePage from './pages/HomePage';
import type { LayoutName } from './shell/layouts';

/** A route of SPEC §2. `layout: false` → no layout; a name → that layout; absent → default. */
export interface RouteDef {
  path: string;
  /** The page; lazy except home, the landing page, which ships in the first chunk. */
  page: ComponentType;
  layout?: LayoutName | false;
  /** Signed-out visitors are sent to sign-in (SPEC §6 need_login). */
  auth?: boolean;
}

const knowledges = lazy(() => import('./pages/KnowledgePage'));
const errorPage = lazy(() => import('./pages/ErrorPage'));

/** Every route of SPEC §2 with its layout rule. */
export const routes: RouteDef[] = [
  { path: '/', page: HomePage, layout: 'blank', auth: true },
  { path: '/test', page: lazy(() => import('./pages/TestPage')), layout: false, auth: true },
  { path: '/public_folder', page: lazy(() => import('./pages/PublicFolderPage')), layout: 'blank', auth: true },
  { path: '/pdf_viewer', page: lazy(() => import('./pages/PdfViewerPage')), layout: 'blank', auth: true },
  { path: '/knowledges', page: knowledges, layout: 'blank', auth: true },
  // SPEC §2: the parts of the knowledge view take the parent's layout.
  { path: '/knowledges/sidebar_header', page: knowledges, layout: 'blank', auth: true },
  { path: '/knowledges/sidebar_content', page: knowledges, layout: 'blank', auth: true },
  { path: '/knowledges/main_list', page: knowledges, layout: 'blank', auth: true },
  { path: '/knowledges/main_blank', page: knowledges, layout: 'blank', auth: true },
  { path: '/errors/:code', page: errorPage, layout: 'blank' },
  { path: '/channels', page: lazy(() => import('./pages/ChannelsPage')), layout: 'blank', auth: true },
  // The molecule database search (情报数据库检索).
  { path: '/molecules', page: lazy(() => import('./pages/MoleculeSearchPage')), auth: true },
  // Batch docking (a SMILES list or an SDF file; a search's results from /molecules).
  { path: '/docking', page: lazy(() => import('./pages/DockingPage')), auth: true },
  { path: '/sar', page: lazy(() => import('./pages/SarPage')), auth: true },
  { path: '/billing', page: lazy(() => import('./pages/BillingPage')), auth: true },
  // Not in SPEC §2: personal API tokens for scripts and MCP clients (DESIGN §3), from the user menu.
  { path: '/tokens', page: lazy(() => import('./pages/TokensPage')), auth: true },
  // Administrators add and remove MCP servers (user menu, administrators only).
  { path: '/admin/mcp_servers', page: lazy(() => import('./pages/McpServersPage')), auth: true },
  { path: '/auth/sign-up', page: lazy(() => import('./pages/auth/SignUpPage')), layout: 'blank' },
  { path: '/auth/sign-in', page: lazy(() => import('./pages/auth/SignInPage')), layout: 'blank' },
  { path: '/auth/otp', page: lazy(() => import('./pages/auth/OtpPage')), layout: 'blank' },
  { path: '/auth/forgot-password', page: lazy(() => import('./pages/auth/ForgotPasswordPage')), layout: 'blank' },
  { path: '/auth/reset-password', page: lazy(() => import('./pages/auth/ResetPasswordPage')), layout: 'blank' },
  { path: '/auth/activate-transit', page: lazy(() => import('./pages/auth/ActivatePage')), layout: 'blank' },
  { path: '/ask/ask_main', page: lazy(() => import('./pages/AskPartPage')), auth: true },
  { path: '/ask/ask_button', page: lazy(() => import('./pages/AskPartPage')), auth: true },
];

/** Shown for any path no route matches. */
export const notFoundPage = errorPage;
