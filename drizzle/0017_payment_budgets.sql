CREATE TABLE "payment_budgets" (
	"client_address" text PRIMARY KEY NOT NULL,
	"window_started_at" timestamp (3) with time zone NOT NULL,
	"used" integer NOT NULL
);
