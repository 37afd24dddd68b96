import { AppError } from '../../../platform/errors.ts';

/** A non-blocking finding about an uploaded file, reported back to the caller with the stored file. */
export interface MediaWarning {
  code: string;
  message: string;
}

/** A 422 naming the upload field, as every media rejection is. */
export function mediaRejected(code: string, message: string, fieldPath: string, cause?: unknown): AppError {
  return new AppError('validation_error', code, message, { details: [{ path: fieldPath, message }], cause });
}
