-- The store's DDL as the code wrote it before schema migrations (docs/operations.md, "Upgrading").
CREATE TABLE IF NOT EXISTS events (
	position INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	stream_id VARCHAR NOT NULL, 
	version INTEGER NOT NULL, 
	type VARCHAR NOT NULL, 
	schema_version INTEGER NOT NULL, 
	data JSON NOT NULL, 
	metadata JSON NOT NULL, 
	recorded_at DATETIME NOT NULL, 
	CONSTRAINT uq_events_stream_version UNIQUE (stream_id, version)
);
CREATE INDEX IF NOT EXISTS ix_events_stream_prefix ON events (stream_id);
CREATE TABLE IF NOT EXISTS games (
	game_id VARCHAR NOT NULL, 
	variant VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	status VARCHAR NOT NULL, 
	phase VARCHAR, 
	deadline DATETIME, 
	summary JSON NOT NULL, 
	updated_at DATETIME NOT NULL, 
	PRIMARY KEY (game_id)
);
CREATE INDEX IF NOT EXISTS ix_games_deadline ON games (deadline);
CREATE INDEX IF NOT EXISTS ix_games_status ON games (status);
CREATE TABLE IF NOT EXISTS notification_outbox (
	id INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, 
	dedupe_key VARCHAR NOT NULL, 
	game_id VARCHAR NOT NULL, 
	player_id VARCHAR NOT NULL, 
	kind VARCHAR NOT NULL, 
	phase VARCHAR, 
	url TEXT NOT NULL, 
	payload JSON NOT NULL, 
	status VARCHAR NOT NULL, 
	attempts INTEGER NOT NULL, 
	next_attempt_at DATETIME NOT NULL, 
	last_error TEXT, 
	source_position BIGINT NOT NULL, 
	created_at DATETIME NOT NULL, 
	delivered_at DATETIME, 
	UNIQUE (dedupe_key)
);
CREATE INDEX IF NOT EXISTS ix_notification_outbox_due ON notification_outbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS ix_notification_outbox_game_id ON notification_outbox (game_id);
CREATE TABLE IF NOT EXISTS projection_positions (
	name VARCHAR NOT NULL, 
	position BIGINT NOT NULL, 
	PRIMARY KEY (name)
);
