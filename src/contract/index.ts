export * from './envelope';
export * from './auth';
export * from './general';
export * from './diagnostics';
export * from './knowledge';
export * from './mol';
export * from './channel';
export * from './admet';
