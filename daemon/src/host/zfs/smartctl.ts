export type SmartHealth = 'passed' | 'failed' | 'unknown';

export interface SmartState {
  device: string;
  available: boolean;
  health: SmartHealth;
  model: string | null;
  serial: string | null;
  temperatureC: number | null;
  powerOnHours: number | null;
  reallocatedSectors: number | null;
  pendingSectors: number | null;
  /** NVMe media and data integrity errors. */
  mediaErrors: number | null;
  /** The last self-test's result, when one ran ("Completed without error", ...). */
  lastSelfTest: string | null;
  /** Why SMART is not available (virtual disks, USB bridges without pass-through). */
  message: string | null;
}

interface SmartJson {
  smartctl?: { exit_status?: number; messages?: { string?: string; severity?: string }[] };
  device?: { name?: string };
  model_name?: string;
  serial_number?: string;
  smart_support?: { available?: boolean; enabled?: boolean };
  smart_status?: { passed?: boolean };
  temperature?: { current?: number };
  power_on_time?: { hours?: number };
  ata_smart_attributes?: { table?: { id?: number; raw?: { value?: number } }[] };
  ata_smart_self_test_log?: { standard?: { table?: { status?: { string?: string } }[] } };
  nvme_self_test_log?: { table?: { self_test_result?: { string?: string } }[] };
  nvme_smart_health_information_log?: { media_errors?: number };
}

/** Parses `smartctl --json -a <dev>` (smartmontools 7.x JSON); exit bit 3 ("disk failing") also shows as failed. */
export function parseSmartctl(device: string, json: string): SmartState {
  const data = JSON.parse(json) as SmartJson;
  const attr = (id: number) => data.ata_smart_attributes?.table?.find((a) => a.id === id)?.raw?.value ?? null;
  const exit = data.smartctl?.exit_status ?? 0;
  const available = data.smart_support?.available ?? data.smart_status !== undefined;
  let health: SmartHealth = 'unknown';
  if (data.smart_status?.passed === true) health = 'passed';
  if (data.smart_status?.passed === false || (exit & 8) !== 0) health = 'failed';
  const lastAta = data.ata_smart_self_test_log?.standard?.table?.[0]?.status?.string ?? null;
  const lastNvme = data.nvme_self_test_log?.table?.[0]?.self_test_result?.string ?? null;
  return {
    device,
    available: Boolean(available) && data.smart_status !== undefined,
    health,
    model: data.model_name ?? null,
    serial: data.serial_number ?? null,
    temperatureC: data.temperature?.current ?? null,
    powerOnHours: data.power_on_time?.hours ?? null,
    reallocatedSectors: attr(5),
    pendingSectors: attr(197),
    mediaErrors: data.nvme_smart_health_information_log?.media_errors ?? null,
    lastSelfTest: lastAta ?? lastNvme,
    message: data.smart_status === undefined ? (data.smartctl?.messages?.[0]?.string ?? 'SMART is not available') : null,
  };
}
