import type { Metadata } from "next";
import { getFormatter, getLocale, getTranslations } from "next-intl/server";
import { z } from "zod";
import { ProductForm } from "@/components/admin/product-form";
import { StockForm } from "@/components/admin/stock-form";
import { ProductImage } from "@/components/product-image";
import { TextLink, NotFound, PageHeader } from "@/components/admin/page-header";
import { Notice, Section } from "@/components/admin/section";
import { columnsOf, Table } from "@/components/admin/table";
import { fileInput } from "@/components/styles";
import { SubmitButton } from "@/components/submit-button";
import { requireAdmin } from "@/lib/admin/auth";
import { AUDIT_LIMIT, parseProductId, productForAdmin, type CatalogChange } from "@/lib/catalog/back-office";
import { MAX_PICTURE_BYTES, type PictureProblem } from "@/lib/catalog/pictures";
import { getDb } from "@/lib/db/client";
import { typedFields } from "@/lib/catalog/editing";
import { formatMoney } from "@/lib/money";
import {
  addPictureAction,
  deleteProductAction,
  removePictureAction,
  restoreProductAction,
  setVisibleAction,
} from "../actions";
import { productFormLabels, stockFormLabels } from "../labels";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const id = parseProductId((await params).id);
  // With the database down the layout says so in place of the page; the title is then the back office's own.
  const found = id === undefined ? undefined : await productForAdmin(getDb(), id).catch(() => null);
  if (found === null) return {};
  const locale = await getLocale();
  const t = await getTranslations("admin.products.list");
  return { title: found ? (locale === "ar" ? found.product.nameAr : found.product.nameEn) : t("notFound") };
}

const resultSchema = z.enum([
  "created",
  "saved",
  "unchanged",
  "hidden",
  "shown",
  "picture_added",
  "picture_removed",
  "picture_gone",
  "archived",
  "restored",
  "archived_locked",
]);
const pictureProblemSchema = z.enum([
  "empty",
  "tooLarge",
  "notImage",
  "svg",
  "tooManyPixels",
] satisfies PictureProblem[]);

/**
 * One product as the merchant edits it: its fields, hide or show it, its stock (on hand, available now, and an
 * adjustment with a reason), its pictures (upload, remove), delete it (or archive it when orders name it), and its
 * history (who changed what, when; Africa/Tripoli time). An archived product shows only its pictures and history, and
 * a way to restore it.
 */
export default async function AdminProductPage({ params, searchParams }: Props) {
  await requireAdmin();
  const [{ id: rawId }, query, locale, format, t, tList, tStock, tPictures] = await Promise.all([
    params,
    searchParams,
    getLocale(),
    getFormatter(),
    getTranslations("admin.products.form"),
    getTranslations("admin.products.list"),
    getTranslations("admin.products.stock"),
    getTranslations("admin.products.pictures"),
  ]);
  const id = parseProductId(rawId);
  const found = id === undefined ? undefined : await productForAdmin(getDb(), id);
  const back = (
    <TextLink href="/admin/products" small>
      {t("back")}
    </TextLink>
  );
  if (id === undefined || !found) return <NotFound back={back}>{tList("notFound")}</NotFound>;
  const { product, pictures, available, changes } = found;
  const archived = product.archivedAt !== null;
  const name = locale === "ar" ? product.nameAr : product.nameEn;
  const result = resultSchema.safeParse(query.result);
  const pictureProblem = pictureProblemSchema.safeParse(query.picture);
  const [formLabels, stockLabels] = await Promise.all([productFormLabels("save"), stockFormLabels()]);
  // The edit form has no stock field: stock changes with a reason, in the stock form.
  const initial = { ...typedFields(product), stock: undefined, visible: product.visible };

  return (
    <div className="space-y-6">
      {back}
      <PageHeader
        title={name}
        dir="auto"
        aside={
          <div className="flex flex-wrap items-center gap-3">
            {archived ? (
              <span className="rounded-full bg-stone-200 px-2 py-0.5 text-sm text-stone-800">{tList("archived")}</span>
            ) : product.visible ? (
              <TextLink href={`/products/${product.slug}`} small>
                {t("inShop")}
              </TextLink>
            ) : (
              <span className="rounded-full bg-stone-200 px-2 py-0.5 text-sm text-stone-800">{t("hiddenNote")}</span>
            )}
            {!archived && (
              <form action={setVisibleAction}>
                <input type="hidden" name="id" value={product.id} />
                <input type="hidden" name="visible" value={product.visible ? "false" : "true"} />
                <SubmitButton variant="secondary" pendingLabel={t("working")}>
                  {product.visible ? t("hide") : t("showInShop")}
                </SubmitButton>
              </form>
            )}
          </div>
        }
      />
      {result.success && (
        <Notice tone="saved" testId="product-result">
          {t(`results.${result.data}`)}
        </Notice>
      )}

      {archived && (
        <section
          aria-labelledby="archived"
          className="space-y-2 rounded-lg border border-stone-300 bg-stone-50 p-4"
          data-testid="product-archived"
        >
          <h2 id="archived" className="font-semibold">
            {tList("archived")}
          </h2>
          <p>{t("archivedNote")}</p>
          <form action={restoreProductAction} className="flex flex-wrap items-center gap-3">
            <input type="hidden" name="id" value={product.id} />
            <SubmitButton variant="secondary" pendingLabel={t("working")}>
              {t("restore")}
            </SubmitButton>
            <p className="text-sm text-stone-600">{t("restoreHelp")}</p>
          </form>
        </section>
      )}

      {!archived && (
        <>
          <Section id="details" title={t("details")} tone="bare" large>
            <ProductForm
              // A fresh form once the product's fields changed (saved, or hidden or shown), not when only its stock did.
              key={JSON.stringify(initial)}
              id={product.id}
              initial={initial}
              labels={formLabels}
            />
          </Section>

          <Section id="stock" title={tStock("title")} large>
            {product.stock === null ? (
              <p data-testid="product-stock">{tStock("notCounted")}</p>
            ) : (
              <dl className="grid max-w-md grid-cols-2 gap-2" data-testid="product-stock">
                <dt className="text-stone-600">{tStock("onHand")}</dt>
                <dd data-testid="product-on-hand">{product.stock}</dd>
                <dt className="text-stone-600">{tStock("available")}</dt>
                <dd data-testid="product-available">{available}</dd>
              </dl>
            )}
            <p className="text-sm text-stone-600">{tStock("availableHint")}</p>
            <StockForm id={product.id} counted={product.stock !== null} labels={stockLabels} />
          </Section>
        </>
      )}

      <Section id="pictures-title" anchor="pictures" title={tPictures("title")} large>
        {pictureProblem.success && (
          <Notice tone="error" role="alert" testId="picture-error">
            {tPictures(`problems.${pictureProblem.data}`)}
          </Notice>
        )}
        {pictures.length === 0 ? (
          <p className="text-stone-600">{tPictures("none")}</p>
        ) : (
          <>
            <p className="text-sm text-stone-600">{tPictures("first")}</p>
            <ul className="flex flex-wrap gap-4">
              {pictures.map((picture, index) => (
                <li key={picture.position} className="space-y-1">
                  <a href={picture.large}>
                    <ProductImage src={picture.small} size={128} className="size-32 rounded-lg object-cover" />
                    <span className="sr-only">{tPictures("alt", { position: index + 1, name })}</span>
                  </a>
                  <form action={removePictureAction}>
                    <input type="hidden" name="id" value={product.id} />
                    <input type="hidden" name="position" value={picture.position} />
                    <SubmitButton variant="link" pendingLabel={tPictures("removing")}>
                      {tPictures("remove", { position: index + 1 })}
                    </SubmitButton>
                  </form>
                </li>
              ))}
            </ul>
          </>
        )}
        <form action={addPictureAction} className="grid gap-2">
          <input type="hidden" name="id" value={product.id} />
          <label htmlFor="picture" className="text-sm font-medium">
            {tPictures("file")}
          </label>
          <p id="picture-hint" className="text-sm text-stone-600">
            {tPictures("fileHint")}
          </p>
          <input
            id="picture"
            type="file"
            name="picture"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            aria-describedby="picture-hint"
            data-max-bytes={MAX_PICTURE_BYTES}
            className={fileInput}
          />
          <div>
            <SubmitButton pendingLabel={tPictures("uploading")}>{tPictures("upload")}</SubmitButton>
          </div>
        </form>
      </Section>

      {!archived && (
        <Section id="delete" title={t("deleteTitle")} large>
          <p className="max-w-3xl text-sm text-stone-700">{t("deleteHelp")}</p>
          <form action={deleteProductAction}>
            <input type="hidden" name="id" value={product.id} />
            <SubmitButton variant="secondary" pendingLabel={t("deleting")}>
              {t("delete")}
            </SubmitButton>
          </form>
        </Section>
      )}

      <Audit changes={changes} locale={locale} format={format} />
    </div>
  );
}

/** The product's history, newest first: when (Africa/Tripoli, the request's time zone), who, what changed. */
async function Audit({
  changes,
  locale,
  format,
}: {
  changes: CatalogChange[];
  locale: string;
  format: Awaited<ReturnType<typeof getFormatter>>;
}) {
  const [t, tForm] = await Promise.all([
    getTranslations("admin.products.audit"),
    getTranslations("admin.products.form"),
  ]);
  const tStock = await getTranslations("admin.products.stock");
  const count = (value: unknown) => (value === null || value === undefined ? tStock("notCountedShort") : String(value));
  // The audit names the database's columns: the price is `priceMinor` there.
  const { fields } = await productFormLabels("save");
  const FIELD_LABELS: Record<string, string> = { ...fields, priceMinor: fields.price };
  const show = (field: string, value: unknown): string => {
    if (value === null || value === undefined || value === "") return t("empty");
    if (field === "priceMinor" && typeof value === "number") return formatMoney(value, locale);
    if (field === "visible") return value ? t("yes") : t("no");
    if (field === "kind" && (value === "physical" || value === "digital")) return tForm(`kinds.${value}`);
    const text = String(value);
    return text.length > 80 ? `${text.slice(0, 80)}…` : text;
  };
  const describe = ({ type, data }: CatalogChange): { title: string; details: string[] } => {
    switch (type) {
      case "stock_adjusted":
        return {
          title: t("types.stock_adjusted", { before: count(data.before), after: count(data.after) }),
          details: typeof data.reason === "string" ? [t("reason", { reason: data.reason })] : [],
        };
      case "picture_added":
      case "picture_removed":
        return { title: t(`types.${type}`, { position: Number(data.position ?? 0) + 1 }), details: [] };
      case "edited": {
        const changed = (data.changes ?? {}) as Record<string, [unknown, unknown]>;
        return {
          title: t("types.edited"),
          details: Object.entries(changed).map(([field, [before, after]]) =>
            t("change", {
              field: FIELD_LABELS[field] ?? field,
              before: show(field, before),
              after: show(field, after),
            }),
          ),
        };
      }
      case "created":
      case "hidden":
      case "shown":
      case "imported":
      case "archived":
      case "restored":
      case "deleted":
        return { title: t(`types.${type}`), details: [] };
    }
  };
  return (
    <Section id="audit" title={t("title")} large>
      <Table
        className=""
        region={{ labelledBy: "audit" }}
        minWidth="min-w-[36rem]"
        caption={t("caption")}
        cell="py-1 pe-3"
        columns={columnsOf(["when", "who", "what"] as const, (key) => t(key))}
        empty={changes.length === 0 && t("none")}
      >
        {changes.map((change) => {
          const { title, details } = describe(change);
          return (
            <tr key={change.id} data-testid="product-audit-row" className="align-top">
              <td className="py-1 pe-3 whitespace-nowrap">
                {format.dateTime(change.at, { dateStyle: "medium", timeStyle: "medium" })}
              </td>
              <td className="py-1 pe-3">{change.by}</td>
              <td className="py-1">
                <span className="font-medium">{title}</span>
                {details.map((detail) => (
                  <span key={detail} className="block" dir="auto">
                    {detail}
                  </span>
                ))}
              </td>
            </tr>
          );
        })}
      </Table>
      {changes.length === AUDIT_LIMIT && <p className="text-sm text-stone-600">{t("more", { count: AUDIT_LIMIT })}</p>}
    </Section>
  );
}
