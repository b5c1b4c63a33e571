import { defaultDeviceId, deviceIdPattern } from '../../../../shared/src/api/desktop/desktop.ts';
import { ProblemError } from '../../core/problem-error.ts';

/** One strong entity tag holding a version number, `"3"`: the only If-Match form the desktop takes. */
const quotedVersion = /^"(\d{1,15})"$/;

/**
 * The version an If-Match header asks for, or null without the header (unconditional).
 * Anything but one quoted number is refused rather than ignored, so a client bug cannot
 * turn a conditional save into an unconditional one.
 */
export function parseIfMatch(value: string | undefined): number | null {
  if (value === undefined) return null;
  const match = quotedVersion.exec(value.trim());
  if (!match?.[1])
    throw new ProblemError('desktop.if_match.invalid', undefined, {
      detail: `If-Match must be one quoted version number such as "3", not ${JSON.stringify(value.slice(0, 40))}`,
    });
  return Number(match[1]);
}

/** The ETag of a version: the same quoted number If-Match takes. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

/** The caller's device from X-Device-Id (made by the web once and kept in localStorage); clients without one share the default device. */
export function parseDeviceId(value: string | undefined): string {
  if (value === undefined) return defaultDeviceId;
  if (!deviceIdPattern.test(value))
    throw new ProblemError('desktop.device.invalid', undefined, { detail: 'X-Device-Id must be 8 to 64 letters, digits, - or _' });
  return value;
}
