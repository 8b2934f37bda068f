CREATE SEQUENCE "public"."ocpp_transaction_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "ocpp_configurations" (
	"cp_id" text NOT NULL,
	"key" text NOT NULL,
	"value" text,
	"readonly" boolean NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ocpp_configurations_pk" PRIMARY KEY("cp_id","key")
);
--> statement-breakpoint
CREATE TABLE "ocpp_connector_states" (
	"connector_id" text PRIMARY KEY NOT NULL,
	"ocpp_status" text NOT NULL,
	"error_code" text NOT NULL,
	"info" text,
	"vendor_error_code" text,
	"reported_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ocpp_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"cp_id" text NOT NULL,
	"connector_id" text,
	"operation_type" text NOT NULL,
	"action" text NOT NULL,
	"params" jsonb NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"picked_by" text,
	"answer" jsonb,
	"error_code" text,
	"answered_at" timestamp with time zone,
	CONSTRAINT "ocpp_operations_status_chk" CHECK (status in ('pending', 'accepted', 'rejected', 'timed_out', 'offline', 'error'))
);
--> statement-breakpoint
CREATE TABLE "ocpp_stations" (
	"cp_id" text PRIMARY KEY NOT NULL,
	"password_hash" text,
	"password_set_at" timestamp with time zone,
	"vendor" text,
	"model" text,
	"serial_number" text,
	"firmware_version" text,
	"booted_at" timestamp with time zone,
	"heartbeat_interval_seconds" integer DEFAULT 60 NOT NULL,
	"last_seen_at" timestamp with time zone,
	"connected_instance" text,
	"offline" boolean DEFAULT false NOT NULL,
	"station_status" text,
	"station_error_code" text,
	"station_info" text,
	"station_status_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ocpp_transactions" (
	"transaction_id" integer PRIMARY KEY NOT NULL,
	"cp_id" text NOT NULL,
	"connector_id" text NOT NULL,
	"id_tag" text NOT NULL,
	"charging_request_id" varchar(22),
	"meter_start_wh" bigint NOT NULL,
	"meter_last_wh" bigint NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone,
	"stop_reason" text
);
--> statement-breakpoint
ALTER TABLE "ocpp_connector_states" ADD CONSTRAINT "ocpp_connector_states_connector_id_connectors_connector_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("connector_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ocpp_transactions" ADD CONSTRAINT "ocpp_transactions_connector_id_connectors_connector_id_fk" FOREIGN KEY ("connector_id") REFERENCES "public"."connectors"("connector_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ocpp_operations_cp_idx" ON "ocpp_operations" USING btree ("cp_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ocpp_transactions_connector_idx" ON "ocpp_transactions" USING btree ("connector_id","stopped_at");