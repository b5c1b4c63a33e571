import 'express-session';

declare module 'express-session' {
  interface SessionData {
    userId: number;
    /** When the password step succeeded; the absolute lifetime counts from here. */
    signedInAt: number;
    /** Set between a correct password and the TOTP step (half signed in). */
    pendingUserId: number;
    pendingSince: number;
  }
}
