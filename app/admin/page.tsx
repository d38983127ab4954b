import { redirect } from "next/navigation";

/** `/admin` is the orders list (which sends anyone signed out to the sign-in page). */
export default function AdminHome() {
  redirect("/admin/orders");
}
