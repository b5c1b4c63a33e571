import { ApiError } from '../../../shared/src/client.ts';
import { api } from './api.ts';
import { TopicClient } from './topics.ts';

/**
 * The tab's one live connection. When the box closes it, asking for the session tells a
 * restart (connect again) from an ended session (which also returns the page to sign-in).
 */
export const live = new TopicClient({
  sessionAlive: async () => {
    try {
      await api.auth.session();
      return true;
    } catch (err) {
      return err instanceof ApiError && err.status === 401 ? false : null;
    }
  },
});
