import { useEffect, useRef, useState } from "react";
import type { FillPage } from "~/domain/fill-pages";
import { isPlace } from "~/domain/fill-resume";
import { lastPlace, rememberPlace } from "~/offline/last-category";

interface Place {
  surveyId: number;
  patientId: string;
  page: FillPage;
  pages: readonly FillPage[];
  /** The category in the page's address, if any. */
  picked: number | null;
  /** The survey's first category. */
  first: number | undefined;
  /** Opened without a page in its address. */
  resumed: boolean;
  hydrated: boolean;
  preview: boolean;
  go: (page: FillPage, categoryId?: number, replace?: boolean) => void;
}

/**
 * Where the case was left is remembered per patient and survey on this device (section 4, decision 019): the
 * page and the category chosen last. A case opened without a page in its address goes back there once the
 * page runs; a questionnaire opened without a category shows the one chosen last, which this returns. The
 * preview keeps nothing; the outro and the confirmation are not places to come back to.
 */
export function useRememberedPlace({
  surveyId,
  patientId,
  page,
  pages,
  picked,
  first,
  resumed,
  hydrated,
  preview,
  go,
}: Place): number | null {
  const [remembered, setRemembered] = useState<number | null>(null);
  const goRef = useRef(go);
  goRef.current = go;
  useEffect(() => {
    if (!hydrated || preview) return;
    let live = true;
    void lastPlace(surveyId, patientId).then((kept) => {
      if (!live) return;
      const keptCategory = kept?.categoryId;
      if (resumed && kept?.page && pages.includes(kept.page)) {
        const elsewhere =
          kept.page !== page || (page === "questionnaire" && (keptCategory ?? first) !== (picked ?? first));
        if (elsewhere) return goRef.current(kept.page, kept.page === "questionnaire" ? keptCategory : undefined, true);
      }
      if (page === "questionnaire" && picked === null && keptCategory !== undefined) setRemembered(keptCategory);
      if (isPlace(page))
        void rememberPlace(surveyId, patientId, {
          page,
          categoryId: page === "questionnaire" ? (picked ?? keptCategory) : keptCategory,
        });
    });
    return () => {
      live = false;
    };
  }, [hydrated, preview, picked, page, pages, first, resumed, surveyId, patientId]);
  return remembered;
}
