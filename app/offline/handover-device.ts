import { callApi } from "~/api-client";
import { afterWrongPin, noTries, pinWaitLeft, type HandoverCase } from "~/domain/handover";
import { clearHandoverMark, readHandoverMark, writeHandoverMark } from "./handover-mark";
import { makePinRecord, openWithPin } from "./handover-pin";
import { deviceHandover, handoverStore, HANDOVER_KEY, HANDOVER_STORE, type DeviceHandover } from "./handover-record";
import { sealedDelete, sealedSet, sealedUpdate } from "./sealed";
import type { Holder } from "./vault";

export { deviceHandover, HANDOVER_KEY, HANDOVER_STORE, type DeviceHandover } from "./handover-record";
const store = handoverStore;

/** Starts the patient mode on the device: the PIN's record sealing the server's return token. */
export async function beginDeviceHandover(
  holder: Holder,
  c: HandoverCase,
  pin: string,
  returnToken: string,
  iterations?: number,
): Promise<DeviceHandover> {
  const mode: DeviceHandover = {
    case: { surveyId: c.surveyId, patientId: c.patientId },
    pin: await makePinRecord(pin, returnToken, iterations),
    tries: noTries(),
    textSize: 0,
    startedAt: new Date().toISOString(),
  };
  await sealedSet(holder, store(holder), HANDOVER_KEY, mode);
  await writeHandoverMark(holder, mode.case);
  return mode;
}

export async function setHandoverTextSize(holder: Holder, textSize: number): Promise<void> {
  await sealedUpdate<DeviceHandover>(holder, store(holder), HANDOVER_STORE, HANDOVER_KEY, (old) =>
    old ? { ...old, textSize } : undefined,
  );
}

export type PinOutcome = { ok: true; returnToken: string } | { ok: false; waitMs: number; failures: number };

/**
 * Tries a PIN: refused without checking while a wait runs; a wrong one counts (kept before the answer, so
 * closing the page does not undo it). The right one answers the return token and leaves the mode to the
 * caller, who ends it once the server has (or at once offline).
 */
export async function tryPin(holder: Holder, pin: string, now = Date.now()): Promise<PinOutcome> {
  const mode = await deviceHandover(holder);
  if (!mode) return { ok: false, waitMs: 0, failures: 0 };
  const waiting = pinWaitLeft(mode.tries, now);
  if (waiting > 0) return { ok: false, waitMs: waiting, failures: mode.tries.failures };
  const token = await openWithPin(mode.pin, pin);
  if (token !== null) {
    await sealedUpdate<DeviceHandover>(holder, store(holder), HANDOVER_STORE, HANDOVER_KEY, (old) =>
      old ? { ...old, tries: noTries() } : undefined,
    );
    return { ok: true, returnToken: token };
  }
  const after = await sealedUpdate<DeviceHandover>(holder, store(holder), HANDOVER_STORE, HANDOVER_KEY, (old) =>
    old ? { ...old, tries: afterWrongPin(old.tries, now) } : undefined,
  );
  const tries = after?.tries ?? noTries();
  return { ok: false, waitMs: pinWaitLeft(tries, now), failures: tries.failures };
}

/**
 * Offline, the right PIN returns the device to staff at once (the service worker's guard ends with the
 * mark); the server's mode ends once online.
 */
export async function returnOffline(holder: Holder, token: string): Promise<void> {
  await sealedUpdate<DeviceHandover>(holder, store(holder), HANDOVER_STORE, HANDOVER_KEY, (old) =>
    old ? { ...old, returned: token } : undefined,
  );
  await clearHandoverMark();
}

/** Ends the patient mode on the device. */
export async function endDeviceHandover(holder: Holder): Promise<void> {
  await sealedDelete(HANDOVER_KEY, store(holder));
  await clearHandoverMark();
}

/**
 * What a sync finds of the device's hand-over: none kept (or ended just now), the patient still holding
 * the device, the server out of reach before its mode ended, or the server refusing the token.
 */
export type HandoverAtSync = "none" | "held" | "unreachable" | "refused";

/**
 * The right PIN was typed without a network: with the network back, the server's mode ends by the token
 * it opened, before anything else is asked of the server (staff's calls are refused while it runs), and
 * then the device's record. A server out of reach leaves both for the next try: a sync that went on would
 * bring the patient's answers in and leave nothing to try again with, and the server's mode would stay.
 */
export async function endReturnedHandover(holder: Holder): Promise<HandoverAtSync> {
  const mode = await deviceHandover(holder);
  if (!mode) return "none";
  if (!mode.returned) return "held";
  // The PIN was typed without a network: the trail's row says the hand-over ended offline. The contract loads
  // here, not with every page (the fill store, part of every page's start, reads the mode).
  const { handoverApi } = await import("~/contracts/handover");
  const ended = await callApi(handoverApi.end, { body: { ReturnToken: mode.returned, Offline: true } });
  if (!ended.ok) return ended.type === "NETWORK" ? "unreachable" : "refused";
  await endDeviceHandover(holder);
  return "none";
}

/**
 * The case the device is in patient mode for now, as its mark says (not after the PIN returned it), or
 * null: what a page built without the server shows (root.tsx).
 */
export async function handedOverCase(holder: Holder): Promise<HandoverCase | null> {
  return readHandoverMark(holder).catch(() => null);
}
