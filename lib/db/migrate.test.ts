import { describe, expect, it } from "vitest";
import { looksLikeTransactionPooler, migrationDatabaseUrl } from "./migrate";

describe("the connection migrations use", () => {
  it("is the direct one when a deploy gives both, as Vercel's Neon integration does", () => {
    const source = {
      DATABASE_URL: "postgresql://u:p@ep-1-pooler.eu-central-1.aws.neon.tech/shop",
      DATABASE_URL_UNPOOLED: "postgresql://u:p@ep-1.eu-central-1.aws.neon.tech/shop",
    };
    expect(migrationDatabaseUrl(source)).toBe(source.DATABASE_URL_UNPOOLED);
    expect(migrationDatabaseUrl({ DATABASE_URL: "postgresql://u:p@db:5432/shop", DATABASE_URL_UNPOOLED: "" })).toBe(
      "postgresql://u:p@db:5432/shop",
    );
    expect(migrationDatabaseUrl({})).toBeUndefined();
  });

  it("tells the hosted transaction poolers from direct connections", () => {
    expect(looksLikeTransactionPooler("postgresql://u:p@ep-1-pooler.eu-central-1.aws.neon.tech/shop")).toBe(true);
    expect(looksLikeTransactionPooler("postgresql://u:p@aws-0-eu-central-1.pooler.supabase.com:6543/postgres")).toBe(
      true,
    );
    expect(looksLikeTransactionPooler("postgresql://u:p@db.example.ly:6543/shop")).toBe(true);
    expect(looksLikeTransactionPooler("postgresql://u:p@db.example.ly:6432/shop?pgbouncer=true")).toBe(true);
    expect(looksLikeTransactionPooler("postgresql://u:p@ep-1.eu-central-1.aws.neon.tech/shop")).toBe(false);
    expect(looksLikeTransactionPooler("postgresql://u:p@db.abc.supabase.co:5432/postgres")).toBe(false);
    expect(looksLikeTransactionPooler("not a url")).toBe(false);
  });
});
