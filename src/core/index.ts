// The framework-free browser core shared by the site (src/host) and the elements (src/widgets).
export * from './status-store';
export * from './toast';
export * from './i18n';
export * from './api';
export * from './query-cache';
export * from './env';
export * from './validation';
export * from './page';
