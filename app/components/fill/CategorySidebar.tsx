import { Link } from "@remix-run/react";
import { useTranslation } from "~/texts";
import type { CategoryStatus } from "~/domain/category-status";
import type { Category } from "~/domain/survey";

function StatusIcon({ status }: { status: CategoryStatus }) {
  const { t } = useTranslation();
  const label = t(`fill.categoryStatus.${status}`);
  return (
    <span className={`cat-status cat-status--${status}`} role="img" title={label}>
      {status === "complete" ? "✓" : status === "inProcess" ? "◐" : "○"}
    </span>
  );
}

/** The categories with their status icons; collapsible on small screens (section 2). */
export function CategorySidebar({
  categories,
  statuses,
  current,
  hrefOf,
  onPick,
}: {
  categories: Category[];
  statuses: Record<number, CategoryStatus>;
  current: number;
  hrefOf: (id: number) => string;
  onPick: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <details className="cat-sidebar" open>
      <summary className="cat-sidebar__toggle">{t("fill.categories")}</summary>
      <nav aria-label={t("fill.categories")}>
        <ol className="cat-sidebar__list">
          {categories.map((c) => (
            <li key={c.Id}>
              <Link
                to={hrefOf(c.Id)}
                replace
                preventScrollReset
                aria-current={c.Id === current ? "step" : undefined}
                className={`cat-sidebar__item${c.Id === current ? " cat-sidebar__item--current" : ""}`}
                data-testid="category-link"
                data-status={statuses[c.Id]}
                // The page goes once the saves on their way have settled (onPick), in one navigation: the
                // link's own would load the category a second time. A click for a new tab stays the link's.
                onClick={(event) => {
                  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                  event.preventDefault();
                  onPick(c.Id);
                }}
              >
                <StatusIcon status={statuses[c.Id] ?? "empty"} />
                <span>{c.Title}</span>
              </Link>
            </li>
          ))}
        </ol>
      </nav>
    </details>
  );
}
