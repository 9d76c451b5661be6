import type { HandoverCase, PinTries } from "~/domain/handover";
import type { PinRecord } from "./handover-pin";
import { personStore, sealedGet } from "./sealed";
import type { Holder } from "./vault";

/**
 * The hand-over as the device holds it (docs/decisions/058-hand-over.md): sealed in the staff member's own
 * store (decision 048), so that back, reload, a typed address and a page without a network all find the
 * patient mode, and a reload does not forget the wrong PINs counted so far. Its mark (handover-mark.ts) tells
 * the service worker, which cannot read this store, while the mode runs.
 */

export interface DeviceHandover {
  case: HandoverCase;
  pin: PinRecord;
  tries: PinTries;
  /** The text size the patient chose: 0 (A), 1 (A+), 2 (A++). */
  textSize: number;
  startedAt: string;
  /**
   * Set when the right PIN was typed without a network: the device is the staff member's again, and the
   * return token is sent to end the server's mode with the next call online.
   */
  returned?: string;
}

export const HANDOVER_STORE = "handover";
export const HANDOVER_KEY = "mode";
export const handoverStore = (holder: Holder) => personStore(holder, HANDOVER_STORE);

/**
 * The hand-over on this device for the holder, or null. Apart from handover-device.ts, which starts and ends
 * it: the fill store reads it on every page, and the PIN's code and the hand-over's calls load only with the
 * hand-over's screens.
 */
export async function deviceHandover(holder: Holder): Promise<DeviceHandover | null> {
  return (await sealedGet<DeviceHandover>(holder, handoverStore(holder), HANDOVER_KEY)) ?? null;
}
