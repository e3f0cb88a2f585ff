/**
 * An error with a status, a stable code and a message a user can act on.
 * Thrown by routes and domain modules; the one error handler in app.ts turns it into the envelope.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, field?: string, code = 'invalid_input') =>
  new AppError(400, code, message, field);
export const notFound = (message = '资源不存在') => new AppError(404, 'not_found', message);
export const forbidden = (message = '没有权限执行此操作', code = 'forbidden') => new AppError(403, code, message);
export const conflict = (message: string, code = 'conflict') => new AppError(409, code, message);

/** SPEC §8: the two 401 messages the client recognises. */
export const SESSION_INVALID = 'Signature verification failed';
export const SESSION_EXPIRED = 'Signature has expired';

/**
 * What a domain module refuses, by a stable code: the module says what and why (in Chinese), the
 * HTTP status is decided here, once (`toAppError`, used by the error handler in app.ts).
 */
const DOMAIN_STATUS = {
  invalid_input: 400,
  invalid_credentials: 400,
  otp_invalid: 400,
  token_invalid: 400,
  token_expired: 400,
  token_used: 400,
  directory_password: 400,
  too_many_tokens: 400,
  not_an_image: 400,
  // Chemistry: a structure or request the chemist must fix (chem/engine ChemInputError, chem/admet).
  invalid_smiles: 400,
  invalid_molfile: 400,
  invalid_smarts: 400,
  empty_structure: 400,
  input_too_large: 400,
  too_many_atoms: 400,
  highlight_out_of_range: 400,
  mol_too_complex: 400,
  empty: 400,
  too_many: 400,
  not_sdf: 400,
  not_pdb: 400,
  pdb_too_large: 400,
  invalid_docking_input: 400,
  session_invalid: 401,
  forbidden: 403,
  signup_disabled: 403,
  account_inactive: 403,
  account_disabled: 403,
  token_not_allowed: 403,
  web_docs_quota: 403,
  task_quota: 403,
  not_found: 404,
  pdb_unavailable: 404,
  pdb_not_found: 404,
  folder_name_taken: 409,
  duplicate_name: 409,
  still_parsing: 409,
  parse_failed: 409,
  file_parsing: 409,
  knowledge_parsing: 409,
  parsing: 409,
  task_running: 409,
  task_finished: 409,
  task_not_done: 409,
  not_a_pdf: 422,
  otp_too_soon: 429,
  too_many_queued: 429,
  too_many_tasks: 429,
  aborted: 499,
  llm_failed: 502,
  pdb_mirror_failed: 502,
  directory_unavailable: 503,
  llm_not_configured: 503,
  chem_unavailable: 503,
  docking_unavailable: 503,
} as const;

export type DomainCode = keyof typeof DOMAIN_STATUS;

export class DomainError extends Error {
  constructor(
    readonly code: DomainCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** The HTTP status of a domain code. */
export const domainStatus = (code: DomainCode): number => DOMAIN_STATUS[code];

/** A domain error as the HTTP answer it is. */
export const toAppError = (err: DomainError) => new AppError(DOMAIN_STATUS[err.code], err.code, err.message, err.field);
