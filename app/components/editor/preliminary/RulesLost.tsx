import { useTranslation } from "~/texts";
import type { AffectedRule } from "./rules-affected";

/** The questions that lose their show/hide rule, wholly or in part, named before it happens. */
export function RulesLost({ rules }: { rules: AffectedRule[] }) {
  const { t } = useTranslation();
  if (rules.length === 0) return null;
  return (
    <div className="rules-lost" data-testid="rules-lost">
      <p>{t("preliminary.rulesLostIntro", { count: rules.length })}</p>
      <ul>
        {rules.map((rule) => (
          <li key={rule.questionId}>
            {t(rule.whole ? "preliminary.ruleLostWhole" : "preliminary.ruleLostPart", { title: rule.title })}
          </li>
        ))}
      </ul>
    </div>
  );
}
