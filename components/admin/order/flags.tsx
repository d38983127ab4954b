import { getTranslations } from "next-intl/server";
import { resolveFlagAction } from "@/app/admin/orders/[id]/actions";
import type { AdminOrder } from "@/lib/admin/orders";
import { unresolvedFlags } from "@/lib/orders/flags";
import { SubmitButton } from "../../submit-button";
import { orderLabels } from "../labels";
import { Problems } from "../problems";
import { Section } from "../section";

/** The order's open flags, in red, each with the form that resolves it with a note. Nothing when none is open. */
export async function OpenFlags({ order }: { order: AdminOrder }) {
  const open = unresolvedFlags(order);
  if (open.length === 0) return null;
  const [t, label] = await Promise.all([getTranslations("admin.order"), orderLabels()]);
  return (
    <Problems id="flags" title={t("flagsTitle")} help={[t("flagHelp"), t("resolveHelp")]} testId="order-flags">
      <ul className="mt-3 space-y-3">
        {open.map((flag) => (
          <li key={flag}>
            <form action={resolveFlagAction} className="grid gap-2 sm:max-w-md">
              <input type="hidden" name="id" value={order.id} />
              <input type="hidden" name="flag" value={flag} />
              <p className="font-medium">{label.flag(flag)}</p>
              <label className="grid gap-1 text-sm">
                {t("resolveNote", { flag: label.flag(flag) })}
                <textarea
                  name="note"
                  required
                  maxLength={500}
                  rows={2}
                  dir="auto"
                  className="rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900"
                />
              </label>
              <div>
                <SubmitButton pendingLabel={t("resolving")} variant="secondary">
                  {t("resolve")}
                </SubmitButton>
              </div>
            </form>
          </li>
        ))}
      </ul>
    </Problems>
  );
}

/** The flags dealt with: who resolved each, when, and their note (or that the mark paid answered it). */
export async function ResolvedFlags({ order }: { order: AdminOrder }) {
  if (order.resolvedFlags.length === 0) return null;
  const [t, label] = await Promise.all([getTranslations("admin.order"), orderLabels()]);
  return (
    <Section id="resolved-flags" title={t("resolvedTitle")} testId="resolved-flags">
      <ul className="mt-1 list-disc space-y-1 ps-5 text-sm">
        {order.flags
          .filter((flag) => order.resolvedFlags.includes(flag))
          .map((flag) => {
            const how = order.resolutions.get(flag);
            const name = label.flag(flag);
            return (
              <li key={flag}>
                {!how
                  ? t("resolvedUnknown", { flag: name })
                  : how.reference
                    ? t("resolvedByMark", { flag: name, by: how.by, reference: how.reference, at: label.time(how.at) })
                    : t("resolvedBy", { flag: name, by: how.by, at: label.time(how.at) })}
                {how?.note && (
                  <span className="block text-stone-600" dir="auto">
                    {how.note}
                  </span>
                )}
              </li>
            );
          })}
      </ul>
    </Section>
  );
}
