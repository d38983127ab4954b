import { PageLink } from "@/components/page-link";
import { getTranslations } from "next-intl/server";
import { card, primaryAction } from "../styles";

/**
 * A back-office list's filter and search (a GET form, so it works without JavaScript and its URL can be shared): one
 * select of what to show (and any `more` selects, each with its own label), a search field with its hint, "Apply" and
 * "Clear" (the list's own path). Its words are the list's messages in `namespace` (`show`, `all`, `search`,
 * `searchHint`, `apply`, `clear`).
 */
export async function ListSearchForm({
  path,
  namespace,
  filter,
  more = [],
  search,
}: {
  path: string;
  /** The select: its field name, its value now, and its options (value → label); "" shows everything. */
  filter: Select;
  /** More selects beside it, each with its label and the text of its "" option. */
  more?: (Select & { label: string; all: string })[];
  search: { value: string };
  namespace: "admin.orders" | "admin.products.list";
}) {
  const t = await getTranslations(namespace);
  const labels = {
    show: t("show"),
    all: t("all"),
    search: t("search"),
    searchHint: t("searchHint"),
    apply: t("apply"),
    clear: t("clear"),
  };
  return (
    <form method="get" action={path} className={`mt-4 flex flex-wrap items-end gap-3 ${card} p-4`}>
      {[{ ...filter, label: labels.show, all: labels.all }, ...more].map((select) => (
        <div key={select.name}>
          <label htmlFor={select.name} className="block text-sm font-medium">
            {select.label}
          </label>
          <select
            id={select.name}
            name={select.name}
            defaultValue={select.value}
            className="mt-1 rounded-lg border border-stone-300 bg-white px-3 py-2"
          >
            <option value="">{select.all}</option>
            {select.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <div className="min-w-56 flex-1">
        <label htmlFor="q" className="block text-sm font-medium">
          {labels.search}
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={search.value}
          aria-describedby="q-hint"
          dir="auto"
          className="mt-1 w-full rounded-lg border border-stone-300 px-3 py-2"
        />
        <p id="q-hint" className="mt-1 text-xs text-stone-600">
          {labels.searchHint}
        </p>
      </div>
      <div className="flex gap-2 pb-5">
        <button type="submit" className={primaryAction}>
          {labels.apply}
        </button>
        <PageLink
          href={path}
          className="rounded-lg px-3 py-2.5 font-medium text-stone-700 underline-offset-2 hover:underline"
        >
          {labels.clear}
        </PageLink>
      </div>
    </form>
  );
}

/** A select of the form: its field name, its value now, and its options (value → label). */
interface Select {
  name: string;
  value: string;
  options: { value: string; label: string }[];
}
