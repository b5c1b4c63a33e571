/** A Cookie header of every cookie an answer set (the sign-in sets the device cookie and the session's). */
export function cookieHeader(answer: Response): string {
  return answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}
