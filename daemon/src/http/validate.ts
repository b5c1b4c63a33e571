import type Joi from 'joi';
import type { ErrorCode } from '../../../shared/src/errors/index.ts';
import { ProblemError } from '../core/problem-error.ts';

export interface FieldError {
  path: string;
  message: string;
}

function fieldErrors(error: Joi.ValidationError): FieldError[] {
  return error.details.map((d) => ({ path: d.path.join('.'), message: d.message }));
}

/** Validates one part of a request; failures answer 400 with every field's message. */
export function validatePart<T>(schema: Joi.Schema<T>, value: unknown, code: ErrorCode, convert: boolean): T {
  const { value: out, error } = schema.validate(value, { abortEarly: false, convert, errors: { wrap: { label: false } } });
  if (error) throw new ProblemError(code, { errors: fieldErrors(error) }, { detail: error.details.map((d) => d.message).join('; ') });
  return out as T;
}

/** In tests every JSON answer is checked against its schema, so the documented shapes cannot drift. */
export function checkResponse(schema: Joi.Schema, value: unknown, routeId: string): void {
  const { error } = schema.validate(value, { abortEarly: false, convert: false });
  if (error)
    throw new Error(
      `Answer of ${routeId} breaks its schema: ${fieldErrors(error)
        .map((e) => `${e.path}: ${e.message}`)
        .join('; ')}`,
    );
}
