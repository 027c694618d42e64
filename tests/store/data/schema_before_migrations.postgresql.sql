-- The store's DDL as the code wrote it before schema migrations (docs/operations.md, "Upgrading").
CREATE TABLE IF NOT EXISTS events (
	position BIGSERIAL NOT NULL, 
	stream_id VARCHAR NOT NULL, 
	version INTEGER NOT NULL, 
	type VARCHAR NOT NULL, 
	schema_version INTEGER NOT NULL, 
	data JSONB NOT NULL, 
	metadata JSONB NOT NULL, 
	recorded_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	PRIMARY KEY (position), 
	CONSTRAINT uq_events_stream_version UNIQUE (stream_id, version)
);
CREATE INDEX IF NOT EXISTS ix_events_stream_prefix ON events (stream_id text_pattern_ops);
CREATE TABLE IF NOT EXISTS games (
	game_id VARCHAR NOT NULL, 
	variant VARCHAR NOT NULL, 
	name VARCHAR NOT NULL, 
	status VARCHAR NOT NULL, 
	phase VARCHAR, 
	deadline TIMESTAMP WITH TIME ZONE, 
	summary JSONB NOT NULL, 
	updated_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	PRIMARY KEY (game_id)
);
CREATE INDEX IF NOT EXISTS ix_games_deadline ON games (deadline);
CREATE INDEX IF NOT EXISTS ix_games_status ON games (status);
CREATE TABLE IF NOT EXISTS notification_outbox (
	id BIGSERIAL NOT NULL, 
	dedupe_key VARCHAR NOT NULL, 
	game_id VARCHAR NOT NULL, 
	player_id VARCHAR NOT NULL, 
	kind VARCHAR NOT NULL, 
	phase VARCHAR, 
	url TEXT NOT NULL, 
	payload JSONB NOT NULL, 
	status VARCHAR NOT NULL, 
	attempts INTEGER NOT NULL, 
	next_attempt_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	last_error TEXT, 
	source_position BIGINT NOT NULL, 
	created_at TIMESTAMP WITH TIME ZONE NOT NULL, 
	delivered_at TIMESTAMP WITH TIME ZONE, 
	PRIMARY KEY (id), 
	UNIQUE (dedupe_key)
);
CREATE INDEX IF NOT EXISTS ix_notification_outbox_due ON notification_outbox (status, next_attempt_at);
CREATE INDEX IF NOT EXISTS ix_notification_outbox_game_id ON notification_outbox (game_id);
CREATE TABLE IF NOT EXISTS projection_positions (
	name VARCHAR NOT NULL, 
	position BIGINT NOT NULL, 
	PRIMARY KEY (name)
);
