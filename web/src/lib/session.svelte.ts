import type { UserInfo } from '../../../shared/src/api/identity/auth.ts';
import type { MessageKey } from './i18n/messages.ts';

let user = $state<UserInfo | null>(null);
let notice = $state<MessageKey | null>(null);

/** Who is signed in in this tab; null shows the sign-in page. */
export const session = {
  get user(): UserInfo | null {
    return user;
  },
  /** A message the sign-in page shows once, such as why the session ended. */
  get notice(): MessageKey | null {
    return notice;
  },
  signedIn(next: UserInfo): void {
    user = next;
    notice = null;
  },
  signedOut(reason: MessageKey | null = null): void {
    user = null;
    notice = reason;
  },
};
