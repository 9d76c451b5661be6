import { surveysApi } from "~/contracts/surveys";
import { useCallback, useEffect, useRef, useState } from "react";
import type { UpdateSurvey } from "~/domain/survey";
import { useEditorMutation } from "../editor-api";
import { saveChanged, saveOnItsWay } from "../saving";

type Field = keyof UpdateSurvey;
type ValueOf<K extends Field> = NonNullable<UpdateSurvey[K]>;

/**
 * One field of the start tab, saved on its own (section 4): `save` sends only this field, skips the
 * call when the value is the saved one, and puts the saved value back when the server refuses it.
 * New data from the server (after any save) replaces what is shown, unless the person has typed something
 * else since the last save, or a save of it is on its way: the page's data reloaded after a save arrives a
 * moment later, and must not take back what was typed in that moment, nor what is being sent.
 */
export function useSavedField<K extends Field>(
  surveyId: number,
  field: K,
  server: ValueOf<K>,
  same: (a: ValueOf<K>, b: ValueOf<K>) => boolean = Object.is,
) {
  const mutate = useEditorMutation();
  const [value, setValue] = useState<ValueOf<K>>(server);
  const saved = useRef<ValueOf<K>>(server);
  const shown = useRef<ValueOf<K>>(server);
  shown.current = value;
  const serverKey = JSON.stringify(server);

  useEffect(() => {
    if (saveOnItsWay(saved)) return;
    const typedSince = !same(shown.current, saved.current);
    saved.current = server;
    if (!typedSince) setValue(server);
    // The key stands for the value: a new array with the same ids is no change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverKey]);

  const save = useCallback(
    /** keepTyped: a refused value stays in the field (it is being typed; the field shows it unsaved). */
    async (next: ValueOf<K>, opts: { keepTyped?: boolean } = {}): Promise<boolean> => {
      if (!opts.keepTyped) setValue(next);
      const before = saved.current;
      const ok = await saveChanged(
        saved,
        next,
        async (value) => (await mutate(surveysApi.update, { params: { id: surveyId }, body: { [field]: value } })).ok,
        same,
      );
      // Refused: the saved value is shown again, unless a newer value has been sent since.
      if (!ok && !opts.keepTyped && saved.current === before) setValue(before);
      return ok;
    },
    [mutate, surveyId, field, same],
  );

  return { value, setValue, save, saved };
}
