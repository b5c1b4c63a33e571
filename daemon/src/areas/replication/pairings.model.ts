import { DataTypes, Model, type Sequelize } from 'sequelize';
import type { PairingRole } from '../../../../shared/src/api/replication/replication.ts';

/**
 * One pairing. On the source: the target's address, its pinned root fingerprint and SSH host key,
 * where its sshd listens and as whom, and the paths of the key pair and known_hosts file (what the
 * send engine needs: host, port, user, keyPath, knownHostsPath). On the target: the source's
 * public key, which the authorized_keys file is written from, and the target's own host key.
 */
export class PairingRow extends Model {
  declare id: string;
  declare role: PairingRole;
  declare label: string;
  declare peerAddress: string;
  declare parentDataset: string;
  declare rootFingerprint: string | null;
  /** The target's host key line (`ssh-ed25519 <base64>`). */
  declare hostKey: string;
  /** The source's key line (`ssh-ed25519 <base64>`). */
  declare publicKey: string;
  declare sshHost: string | null;
  declare sshPort: number | null;
  declare sshUser: string | null;
  declare keyPath: string | null;
  declare knownHostsPath: string | null;
  declare createdAt: string;
}

export function initPairingModel(sequelize: Sequelize): typeof PairingRow {
  // A class of its own per database, as every model here (one process may open several daemons).
  const Bound = class extends PairingRow {};
  const text = (allowNull: boolean) => ({ type: DataTypes.TEXT, allowNull });
  Bound.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      role: text(false),
      label: text(false),
      peerAddress: text(false),
      parentDataset: text(false),
      rootFingerprint: text(true),
      hostKey: text(false),
      publicKey: text(false),
      sshHost: text(true),
      sshPort: { type: DataTypes.INTEGER, allowNull: true },
      sshUser: text(true),
      keyPath: text(true),
      knownHostsPath: text(true),
      createdAt: text(false),
    },
    { sequelize, tableName: 'replication_pairings', modelName: 'PairingRow' },
  );
  return Bound;
}
