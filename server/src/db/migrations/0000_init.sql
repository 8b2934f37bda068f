CREATE TABLE "bills" (
	"bill_id" text PRIMARY KEY NOT NULL,
	"bill_number" text NOT NULL,
	"contract_key" text NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text,
	"end_customer_id" text NOT NULL,
	"end_customer_first_name" text NOT NULL,
	"end_customer_last_name" text NOT NULL,
	"user_type" text NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"energy_loaded" numeric(12, 3) DEFAULT '0' NOT NULL,
	"taxed_fix_costs" numeric(12, 2) DEFAULT '0' NOT NULL,
	"taxed_var_costs" numeric(12, 2) DEFAULT '0' NOT NULL,
	"total_taxed_costs" numeric(12, 2) DEFAULT '0' NOT NULL,
	"billing_status" text,
	"bill_generation_date" timestamp with time zone NOT NULL,
	"bill_collection_date" timestamp with time zone,
	"bill_download_date" timestamp with time zone,
	"payment_method" text,
	"stripe_sepa_payment_intent_id" text,
	"stripe_sepa_bill_payment_status" text,
	"month_number" integer NOT NULL,
	"year_number" integer NOT NULL,
	"pdf_file_id" text,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "bills_bill_number_unique" UNIQUE("bill_number"),
	CONSTRAINT "bills_status_chk" CHECK (billing_status is null or billing_status in ('PAID', 'UNPAID', 'GENERATED', 'SENT', 'NOT_APPLICABLE', 'DISPUTE_CREATED', 'DISPUTED'))
);
--> statement-breakpoint
CREATE TABLE "charging_requests" (
	"transaction_id" varchar(22) PRIMARY KEY NOT NULL,
	"contract_key" text,
	"end_customer_id" text,
	"customer_full_name" text,
	"cpo_id" text NOT NULL,
	"location_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"parking_lot" varchar(5),
	"auth_type" text NOT NULL,
	"rfid_tag" text,
	"rfid_serial_id" text,
	"charging_type" text DEFAULT 'NORMAL' NOT NULL,
	"status" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone,
	"last_update_timestamp" timestamp with time zone NOT NULL,
	"energy_kwh" numeric(12, 3) DEFAULT '0' NOT NULL,
	"cost" numeric(12, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "charging_requests_status_chk" CHECK (status in ('processing', 'accepted', 'connected', 'denied', 'denied_parking_timer', 'terminated_not_started', 'termination_requested', 'terminated_rejected', 'broken', 'charging', 'paused', 'terminated_request', 'finished'))
);
--> statement-breakpoint
CREATE TABLE "connectors" (
	"connector_id" text PRIMARY KEY NOT NULL,
	"cp_id" text NOT NULL,
	"connector_number" integer NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text,
	"parking_lot" varchar(5),
	"wallbox_model" text NOT NULL,
	"status" text DEFAULT 'OFFLINE' NOT NULL,
	"removed" boolean DEFAULT false NOT NULL,
	"online_since" timestamp with time zone,
	"last_heartbeat" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connectors_status_chk" CHECK (status in ('IDLE', 'CONNECTED_UNAVAILABLE', 'OCCUPIED_UNCHARGED', 'OCCUPIED_CHARGING', 'OFFLINE', 'INACTIVE')),
	CONSTRAINT "connectors_parking_lot_len_chk" CHECK (parking_lot is null or char_length(parking_lot) between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"contract_key" text PRIMARY KEY NOT NULL,
	"contract_id" text NOT NULL,
	"contract_number" text NOT NULL,
	"end_customer_id" text NOT NULL,
	"end_customer_id_manually_created" boolean DEFAULT false NOT NULL,
	"cpo_id" text NOT NULL,
	"location_id" text,
	"contract_status" text NOT NULL,
	"user_type" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"care_of" text,
	"street" text NOT NULL,
	"zip_code" text NOT NULL,
	"city" text NOT NULL,
	"country_code" text DEFAULT 'DE' NOT NULL,
	"parking_lot_numbers" text[] DEFAULT '{}'::text[] NOT NULL,
	"auth_type" text DEFAULT 'APP' NOT NULL,
	"rfid_type" text,
	"billing_type" text NOT NULL,
	"billing_cycle" text,
	"start_date" date,
	"end_date" date,
	"fix_tariff" numeric(12, 2),
	"var_tariff" numeric(10, 4),
	"onboarding_fee" numeric(12, 2) DEFAULT '0' NOT NULL,
	"fix_tariff_per_charging_request" numeric(12, 2) DEFAULT '0' NOT NULL,
	"contract_pdf_file_id" text,
	"payment_method" text,
	"contract_mandate_reference" text,
	"contract_iban" text,
	"stripe_sepa_payment_details_are_configured" boolean DEFAULT false NOT NULL,
	"last_sepa_redo_at" timestamp with time zone,
	"debit_account_nr" text,
	"cost_center_number" text,
	"vat_id" text,
	"auth_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "contracts_contract_id_unique" UNIQUE("contract_id"),
	CONSTRAINT "contracts_contract_number_unique" UNIQUE("contract_number"),
	CONSTRAINT "contracts_status_chk" CHECK (contract_status in ('CREATED_UNSIGNED', 'CREATED_SIGNED', 'ACTIVE', 'BLOCKED', 'EXPIRED', 'UNSIGNED_EXPIRED')),
	CONSTRAINT "contracts_user_type_chk" CHECK (user_type in ('REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN', 'AD_HOC')),
	CONSTRAINT "contracts_auth_type_chk" CHECK (auth_type in ('APP', 'RFID', 'APP_AND_RFID')),
	CONSTRAINT "contracts_billing_type_chk" CHECK (billing_type in ('WITH_BILLING', 'NO_BILLING')),
	CONSTRAINT "contracts_payment_method_chk" CHECK (payment_method is null or payment_method in ('BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA', 'STRIPE_CARD', 'NO_PAYMENT_METHOD')),
	CONSTRAINT "contracts_dates_chk" CHECK (end_date is null or start_date is null or end_date >= start_date)
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"customer_id" text PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"customer_type" text NOT NULL,
	"care_of" text,
	"street" text NOT NULL,
	"house_number" text,
	"zip_code" text NOT NULL,
	"city" text NOT NULL,
	"country_code" text DEFAULT 'DE' NOT NULL,
	"contract_key" text,
	"contract_status" text,
	"create_manual_end_customer_id" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_type_chk" CHECK (customer_type in ('Operator', 'Partner'))
);
--> statement-breakpoint
CREATE TABLE "dashboard_users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"role" text NOT NULL,
	"customer_id" text NOT NULL,
	"operator_id" text,
	"is_admin" boolean DEFAULT false NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"verified" boolean DEFAULT true NOT NULL,
	"product_package" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "erp_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"cpo_id" text NOT NULL,
	"client_number" text NOT NULL,
	"net_ledger_account_nr" text NOT NULL,
	"tax_ledger_account_nr" text,
	"payment_method" text NOT NULL,
	CONSTRAINT "erp_values_method_chk" CHECK (payment_method in ('BANK_TRANSFER', 'STRIPE_SEPA', 'SEPA'))
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "idempotency_keys_status_chk" CHECK (status in ('in_progress', 'done'))
);
--> statement-breakpoint
CREATE TABLE "location_infrastructure" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"charging_station_model" text NOT NULL,
	"num_of_charging_stations" integer NOT NULL,
	CONSTRAINT "location_infrastructure_count_chk" CHECK (num_of_charging_stations between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"location_id" text PRIMARY KEY NOT NULL,
	"location_name" text NOT NULL,
	"care_of" text,
	"street" text NOT NULL,
	"zip_code" text NOT NULL,
	"city" text NOT NULL,
	"country_code" text DEFAULT 'DE' NOT NULL,
	"cpo_id" text NOT NULL,
	"is_ems_connected" boolean DEFAULT false NOT NULL,
	"ems_model" text,
	"ems_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"from_address" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"attachment_name" text,
	"attachment_mime_type" text,
	"attachment" "bytea",
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_outbox_status_chk" CHECK (status in ('queued', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "operators" (
	"cpo_id" text PRIMARY KEY NOT NULL,
	"cpo_name" text NOT NULL,
	"street" text NOT NULL,
	"care_of" text,
	"zip_code" text NOT NULL,
	"city" text NOT NULL,
	"country_code" text DEFAULT 'DE' NOT NULL,
	"customer_id" text NOT NULL,
	"create_manual_end_customer_id" boolean DEFAULT false NOT NULL,
	"contact_person_name" text,
	"contact_person_position" text,
	"contact_person_phone" text,
	"contact_person_email" text,
	"billing_type" text,
	"is_charging_history_included" boolean DEFAULT true NOT NULL,
	"payment_preference" text[] DEFAULT '{}'::text[] NOT NULL,
	"iban" text,
	"bank_name" text,
	"bic" text,
	"creditor_id" text,
	"money_collection_gap_in_days" integer,
	"header_line_1" text,
	"header_line_2" text,
	"header_line_3" text,
	"header_line_4" text,
	"footer_line_1" text,
	"footer_line_2" text,
	"footer_line_3" text,
	"footer_line_4" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "operators_billing_type_chk" CHECK (billing_type is null or billing_type in ('SEPA', 'BANK')),
	CONSTRAINT "operators_gap_chk" CHECK (money_collection_gap_in_days is null or money_collection_gap_in_days >= 1)
);
--> statement-breakpoint
CREATE TABLE "password_reset_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "password_reset_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "pending_tariff_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"contract_key" text NOT NULL,
	"new_tariff_date" date NOT NULL,
	"new_tariff_cancellation_date" date NOT NULL,
	"fix_tariff" numeric(12, 2) NOT NULL,
	"var_tariff" numeric(10, 4) NOT NULL,
	"onboarding_fee" numeric(12, 2) DEFAULT '0' NOT NULL,
	"fix_tariff_per_charging_request" numeric(12, 2) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"applied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"family_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "refresh_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "rfid_tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"serial_id" text NOT NULL,
	"rfid_tag" text NOT NULL,
	"contract_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rfid_tags_serial_id_unique" UNIQUE("serial_id"),
	CONSTRAINT "rfid_tags_rfid_tag_unique" UNIQUE("rfid_tag")
);
--> statement-breakpoint
CREATE TABLE "wallbox_models" (
	"name" text PRIMARY KEY NOT NULL,
	"manufacturer" text NOT NULL,
	"connectors_per_station" integer DEFAULT 1 NOT NULL,
	"max_power_kw" numeric(6, 1) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_location_id_locations_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("location_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_pdf_file_id_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_requests" ADD CONSTRAINT "charging_requests_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_requests" ADD CONSTRAINT "charging_requests_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_requests" ADD CONSTRAINT "charging_requests_location_id_locations_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("location_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charging_requests" ADD CONSTRAINT "charging_requests_connector_id_connectors_connector_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("connector_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_location_id_locations_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("location_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connectors" ADD CONSTRAINT "connectors_wallbox_model_wallbox_models_name_fk" FOREIGN KEY ("wallbox_model") REFERENCES "public"."wallbox_models"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_location_id_locations_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("location_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contracts" ADD CONSTRAINT "contracts_contract_pdf_file_id_files_id_fk" FOREIGN KEY ("contract_pdf_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dashboard_users" ADD CONSTRAINT "dashboard_users_operator_id_operators_cpo_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erp_values" ADD CONSTRAINT "erp_values_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_infrastructure" ADD CONSTRAINT "location_infrastructure_location_id_locations_location_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("location_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_infrastructure" ADD CONSTRAINT "location_infrastructure_charging_station_model_wallbox_models_name_fk" FOREIGN KEY ("charging_station_model") REFERENCES "public"."wallbox_models"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_cpo_id_operators_cpo_id_fk" FOREIGN KEY ("cpo_id") REFERENCES "public"."operators"("cpo_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operators" ADD CONSTRAINT "operators_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_user_id_dashboard_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."dashboard_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_tariff_changes" ADD CONSTRAINT "pending_tariff_changes_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_dashboard_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."dashboard_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rfid_tags" ADD CONSTRAINT "rfid_tags_contract_key_contracts_contract_key_fk" FOREIGN KEY ("contract_key") REFERENCES "public"."contracts"("contract_key") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bills_cpo_generation_idx" ON "bills" USING btree ("cpo_id","bill_generation_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bills_status_idx" ON "bills" USING btree ("billing_status");--> statement-breakpoint
CREATE INDEX "bills_payment_method_idx" ON "bills" USING btree ("payment_method");--> statement-breakpoint
CREATE INDEX "bills_user_type_idx" ON "bills" USING btree ("user_type");--> statement-breakpoint
CREATE INDEX "bills_contract_idx" ON "bills" USING btree ("contract_key","bill_generation_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bills_end_customer_idx" ON "bills" USING btree ("end_customer_id");--> statement-breakpoint
CREATE INDEX "charging_requests_cpo_start_idx" ON "charging_requests" USING btree ("cpo_id","start_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "charging_requests_location_start_idx" ON "charging_requests" USING btree ("location_id","start_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "charging_requests_status_idx" ON "charging_requests" USING btree ("status");--> statement-breakpoint
CREATE INDEX "charging_requests_end_customer_idx" ON "charging_requests" USING btree ("end_customer_id","start_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "charging_requests_contract_idx" ON "charging_requests" USING btree ("contract_key","start_date" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "charging_requests_connector_idx" ON "charging_requests" USING btree ("connector_id","start_date" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "connectors_location_parking_lot_uq" ON "connectors" USING btree ("location_id","parking_lot") WHERE parking_lot is not null and removed = false;--> statement-breakpoint
CREATE INDEX "connectors_cp_id_idx" ON "connectors" USING btree ("cp_id");--> statement-breakpoint
CREATE INDEX "connectors_cpo_idx" ON "connectors" USING btree ("cpo_id","connector_id");--> statement-breakpoint
CREATE INDEX "connectors_location_idx" ON "connectors" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "connectors_parking_lot_idx" ON "connectors" USING btree ("parking_lot");--> statement-breakpoint
CREATE INDEX "connectors_wallbox_model_idx" ON "connectors" USING btree ("wallbox_model");--> statement-breakpoint
CREATE INDEX "connectors_status_idx" ON "connectors" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "contracts_end_customer_id_uq" ON "contracts" USING btree ("end_customer_id");--> statement-breakpoint
CREATE INDEX "contracts_cpo_idx" ON "contracts" USING btree ("cpo_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "contracts_name_lower_idx" ON "contracts" USING btree (lower("first_name" || ' ' || "last_name"));--> statement-breakpoint
CREATE INDEX "contracts_email_lower_idx" ON "contracts" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "contracts_location_idx" ON "contracts" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "contracts_user_type_idx" ON "contracts" USING btree ("user_type");--> statement-breakpoint
CREATE INDEX "contracts_status_idx" ON "contracts" USING btree ("contract_status");--> statement-breakpoint
CREATE INDEX "customers_company_name_idx" ON "customers" USING btree ("company_name");--> statement-breakpoint
CREATE UNIQUE INDEX "dashboard_users_email_lower_uq" ON "dashboard_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "dashboard_users_customer_idx" ON "dashboard_users" USING btree ("customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_values_cpo_method_uq" ON "erp_values" USING btree ("cpo_id","payment_method");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "location_infrastructure_location_idx" ON "location_infrastructure" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "location_infrastructure_model_uq" ON "location_infrastructure" USING btree ("location_id","charging_station_model");--> statement-breakpoint
CREATE INDEX "locations_cpo_name_idx" ON "locations" USING btree ("cpo_id","location_name");--> statement-breakpoint
CREATE INDEX "locations_name_lower_idx" ON "locations" USING btree (lower("location_name"));--> statement-breakpoint
CREATE INDEX "locations_address_lower_idx" ON "locations" USING btree (lower("street" || ' ' || "zip_code" || ' ' || "city"));--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "operators_customer_idx" ON "operators" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "password_reset_tokens_user_idx" ON "password_reset_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "pending_tariff_changes_contract_idx" ON "pending_tariff_changes" USING btree ("contract_key");--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE INDEX "rfid_tags_contract_idx" ON "rfid_tags" USING btree ("contract_key");