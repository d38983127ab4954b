import { PageLink } from "@/components/page-link";

/** An order's id, linked to its page in the back office. */
export function OrderLink({ id }: { id: string }) {
  return (
    <PageLink href={`/admin/orders/${id}`} className="font-mono text-brand-800 underline underline-offset-2">
      {id}
    </PageLink>
  );
}
