CREATE TABLE "catalog_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"created_by" text NOT NULL,
	"file_name" text,
	"content" text NOT NULL,
	"applied_at" timestamp (3) with time zone,
	"applied_by" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "catalog_imports_created" ON "catalog_imports" USING btree ("created_at");