import type { AnswerValue, Answers } from "~/domain/answers";
import type { Question } from "~/domain/survey";
import type { ApiResult } from "~/api-client";

/** A typed value is saved this long after the last keystroke (and at once when the field is left). */
export const TYPING_SAVE_MS = 700;

/** What a question's field says about its answer (docs/decisions/038-typed-work-kept.md). */
export type SaveState = "saving" | "saved" | "savedLocal" | "failed";

export interface SaveQueueHooks {
  save: (question: Question, value: AnswerValue | undefined) => Promise<ApiResult<unknown>>;
  /** Whether the answers now go to this device rather than the server. */
  isLocal?: () => boolean;
  /** The page shows this value for the question (a new answer, or the kept one put back after a refusal). */
  show: (questionId: number, value: AnswerValue | undefined) => void;
  state: (questionId: number, state: SaveState) => void;
  refused: (result: Extract<ApiResult<unknown>, { ok: false }>) => void;
  /** A value was kept (on the server or on the device). */
  kept?: (question: Question, value: AnswerValue | undefined) => void;
  /** A save starts (+1) or ends (-1). */
  busy?: (delta: 1 | -1) => void;
  debounceMs?: number;
}

interface Lane {
  question: Question;
  /** The value last kept. */
  kept: AnswerValue | undefined;
  /** It was kept on this device, not on the server. */
  local?: boolean;
  /** Typed, waiting for the typing to pause. */
  draft?: { value: AnswerValue | undefined };
  /** To be sent once the save in flight has ended. */
  next?: { value: AnswerValue | undefined };
  /** The value on its way. */
  sending?: { value: AnswerValue | undefined };
  timer?: ReturnType<typeof setTimeout>;
  running?: Promise<boolean>;
}

const same = (a: AnswerValue | undefined, b: AnswerValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The saves of one fill page, one lane per question: at most one save of a question is on its way at a
 * time, and the value sent next is always the newest one given. A save of an older value therefore never
 * arrives after a newer one (on the server or on the device). A typed value waits until typing pauses
 * (`TYPING_SAVE_MS`); any other value, and `flush`, send at once.
 */
export function saveQueue(initial: Answers, hooks: SaveQueueHooks) {
  const lanes = new Map<number, Lane>();
  const delay = hooks.debounceMs ?? TYPING_SAVE_MS;

  const laneOf = (question: Question): Lane => {
    let lane = lanes.get(question.Id);
    if (!lane) {
      lane = { question, kept: initial[question.Id] };
      lanes.set(question.Id, lane);
    }
    lane.question = question;
    return lane;
  };

  async function drain(lane: Lane): Promise<boolean> {
    let ok = true;
    hooks.busy?.(1);
    try {
      while (lane.next) {
        const { value } = lane.next;
        lane.next = undefined;
        if (same(value, lane.kept)) {
          ok = true;
          continue;
        }
        lane.sending = { value };
        const result = await hooks.save(lane.question, value).finally(() => (lane.sending = undefined));
        if (result.ok) {
          ok = true;
          lane.kept = value;
          lane.local = hooks.isLocal?.() ?? false;
          hooks.kept?.(lane.question, value);
        } else {
          ok = false;
          // A newer value still on its way may be taken; otherwise the kept answer shows again.
          if (!lane.next && !lane.draft) hooks.show(lane.question.Id, lane.kept);
          hooks.refused(result);
        }
      }
    } finally {
      hooks.busy?.(-1);
    }
    if (!lane.draft) hooks.state(lane.question.Id, ok ? (hooks.isLocal?.() ? "savedLocal" : "saved") : "failed");
    return ok;
  }

  function run(lane: Lane): Promise<boolean> {
    if (lane.timer !== undefined) clearTimeout(lane.timer);
    lane.timer = undefined;
    if (lane.draft) {
      lane.next = lane.draft;
      lane.draft = undefined;
    }
    if (!lane.next) return lane.running ?? Promise.resolve(true);
    lane.running ??= drain(lane).finally(() => {
      lane.running = undefined;
      // Given while the last save was ending: sent now.
      if (lane.next) void run(lane);
    });
    return lane.running;
  }

  return {
    /**
     * A new answer. While `typing`, it is saved once typing pauses (or the field is left, or the page is
     * hidden); otherwise at once. Resolves to whether the newest value was kept.
     */
    give(question: Question, value: AnswerValue | undefined, typing = false): Promise<boolean> {
      const lane = laneOf(question);
      hooks.show(question.Id, value);
      hooks.state(question.Id, "saving");
      if (typing) {
        lane.draft = { value };
        if (lane.timer !== undefined) clearTimeout(lane.timer);
        lane.timer = setTimeout(() => void run(lane), delay);
        return Promise.resolve(true);
      }
      lane.draft = undefined;
      lane.next = { value };
      return run(lane);
    },
    /** Sends every typed value now (the page is left or hidden); resolves when all saves have ended. */
    async flush(): Promise<void> {
      await Promise.all([...lanes.values()].map(run));
      while ([...lanes.values()].some((l) => l.running || l.next || l.draft)) {
        await Promise.all([...lanes.values()].map(run));
      }
    },
    /**
     * The sync put these answers on the server: each question whose answer was kept on this device, is
     * still that answer and waits for no save, says it is saved (on the server).
     */
    onServer(answers: Answers): void {
      for (const lane of lanes.values()) {
        if (!lane.local || lane.running || lane.next || lane.draft) continue;
        if (!same(lane.kept, answers[lane.question.Id])) continue;
        lane.local = false;
        hooks.state(lane.question.Id, "saved");
      }
    },
    /** The newest value of each question that is not kept yet (typed, waiting or on its way). */
    unkept(): { question: Question; value: AnswerValue | undefined }[] {
      const out: { question: Question; value: AnswerValue | undefined }[] = [];
      for (const lane of lanes.values()) {
        const newest = lane.draft ?? lane.next ?? lane.sending;
        if (newest) out.push({ question: lane.question, value: newest.value });
      }
      return out;
    },
  };
}

export type SaveQueue = ReturnType<typeof saveQueue>;
