import { defineErrors } from './catalog-entry.ts';

/** Codes of replication tasks and their runs (`replication.task.*`, `replication.run.*`). */
export const replicationTaskErrors = defineErrors({
  'replication.task.not_found': { status: 404, title: 'There is no such replication task', params: ['taskId'] },
  'replication.task.name_taken': { status: 409, title: 'A replication task with this name already exists', params: ['name'] },
  'replication.task.pairing_not_found': { status: 404, title: 'There is no such pairing with another box', params: ['pairingId'] },
  'replication.task.dataset_not_found': { status: 404, title: 'There is no such dataset on this box', params: ['dataset'] },
  'replication.task.dataset_forbidden': {
    status: 409,
    title: "Only a share's, a home's or an app volume's dataset can be replicated",
    params: ['dataset', 'reason'],
    reasons: ['poolRoot', 'notShared'],
  },
  'replication.task.suffix_invalid': {
    status: 400,
    title: 'The target dataset must stay below the pairing: parts of letters, digits and _ - . : joined by /',
    params: ['suffix', 'reason'],
    reasons: ['form', 'tooLong', 'tooDeep'],
  },
  'replication.task.target_taken': { status: 409, title: 'Another task already sends into this target dataset', params: ['target', 'taskId'] },
  'replication.task.running': { status: 409, title: 'A run of this task is already queued or running', params: ['taskId', 'jobId'] },
  'replication.run.no_source_snapshot': { status: 409, title: 'The dataset has no snapshot to send yet', params: ['dataset'] },
  'replication.run.no_common_snapshot': {
    status: 409,
    title: 'The target holds snapshots of the dataset but none in common with this box: only a full send over it would help',
    params: ['dataset', 'target'],
  },
  'replication.run.dataset_gone': { status: 409, title: 'A dataset of the task no longer belongs to a share, a home or an app', params: ['dataset'] },
  'replication.run.pairing_gone': { status: 409, title: 'The pairing of the task was ended', params: ['pairingId'] },
});
