CREATE TABLE "sign_in_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "sign_in_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"admin_id" bigint,
	"token_hash" text,
	"requested_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"used_ip" text,
	CONSTRAINT "sign_in_links_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "sign_in_links_token_with_account" CHECK (("sign_in_links"."admin_id" is null) = ("sign_in_links"."token_hash" is null))
);
--> statement-breakpoint
ALTER TABLE "sign_in_links" ADD CONSTRAINT "sign_in_links_admin_id_admin_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sign_in_links_email_requested" ON "sign_in_links" USING btree ("email","requested_at");--> statement-breakpoint
CREATE INDEX "sign_in_links_ip_requested" ON "sign_in_links" USING btree ("ip","requested_at");