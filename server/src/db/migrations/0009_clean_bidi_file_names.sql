-- File names stored before bidirectional controls were stripped (http/file-name.ts): the same characters, as regex escapes.
UPDATE "files" SET "file_name" = regexp_replace("file_name", '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]', '', 'g') WHERE "file_name" ~ '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]';--> statement-breakpoint
UPDATE "mail_outbox" SET "attachment_name" = regexp_replace("attachment_name", '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]', '', 'g') WHERE "attachment_name" ~ '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]';
