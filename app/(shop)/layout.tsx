import { ShopChrome } from "@/components/shop-chrome";

/** Every shop page: the header with the cart, the page, the footer. */
export default function ShopLayout({ children }: { children: React.ReactNode }) {
  return <ShopChrome>{children}</ShopChrome>;
}
