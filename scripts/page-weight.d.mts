// Types of page-weight.mjs for TypeScript callers (e2e/page-weight.spec.ts).

export interface AssetWeight {
  url: string;
  /** Bytes as served, uncompressed. */
  bytes: number;
  /** Bytes after gzip at {@link GZIP_LEVEL}. */
  gzip: number;
}

export interface AssetGroup {
  files: AssetWeight[];
  bytes: number;
  gzip: number;
}

export interface PageWeight {
  url: string;
  status: number;
  html: { bytes: number; gzip: number };
  js: AssetGroup;
  css: AssetGroup;
  totalGzip: number;
}

export interface ShopPage {
  key: "home" | "product" | "cart" | "checkout" | "order" | "shell";
  name: string;
  path: string;
  cookie: string;
  expectedStatus: number;
  /** Whether the JS budget applies (every page but the 404 shell baseline). */
  budgeted: boolean;
}

export const JS_BUDGET_BYTES: number;
export const GZIP_LEVEL: number;
export function pageAssets(html: string, pageUrl: string, linkHeader?: string | null): { js: string[]; css: string[] };
export function measurePageWeight(url: string, cookie?: string): Promise<PageWeight>;
export function prepareShopPages(baseUrl: string, serviceOrigin: string): Promise<ShopPage[]>;
export function measureShopPages(baseUrl: string, serviceOrigin: string): Promise<(ShopPage & PageWeight)[]>;
export function kb(bytes: number): string;
export function formatWeights(results: (ShopPage & PageWeight)[]): string;
