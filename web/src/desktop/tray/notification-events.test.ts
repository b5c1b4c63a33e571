import { expect } from 'chai';
import type { Notification } from '../../../../shared/src/api/notifications/notifications.ts';
import { applyNotificationEvent } from './notification-events.ts';

const note = (id: number, read = false): Notification => ({
  id,
  type: 'app.message',
  appId: null,
  level: 'info',
  title: `n${id}`,
  code: null,
  params: null,
  body: '',
  link: null,
  read,
  createdAt: new Date(2024, 0, id).toISOString(),
});

describe('notification topic events', () => {
  it('puts a created one first, at most 200, without duplicates', () => {
    const many = Array.from({ length: 200 }, (_, i) => note(200 - i));
    const next = applyNotificationEvent(many, { type: 'created', data: note(201) });
    expect(next).to.have.length(200);
    expect(next[0]?.id).to.equal(201);
    expect(applyNotificationEvent([note(1)], { type: 'created', data: note(1) })).to.have.length(1);
  });

  it('marks read and deletes by ids', () => {
    const list = [note(3), note(2), note(1)];
    expect(applyNotificationEvent(list, { type: 'read', data: { ids: [2] } }).map((n) => n.read)).to.deep.equal([false, true, false]);
    expect(applyNotificationEvent(list, { type: 'deleted', data: { ids: [3, 1] } }).map((n) => n.id)).to.deep.equal([2]);
  });
});
