import { defineErrors } from './catalog-entry.ts';

export const notificationErrors = defineErrors({
  'notifications.notification.not_found': {
    status: 404,
    title: 'There is no such notification',
  },
  'notifications.message.invalid': {
    status: 400,
    title: 'The notification has invalid fields',
    params: ['errors'],
  },
});
