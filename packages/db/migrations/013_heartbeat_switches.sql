-- Armed heartbeat switches (POST /v1/heartbeats), kept across a restart of the front end: a bot
-- that died while it was down still has its orders cancelled once it is back (after one timeout
-- of silence from the start). A deleted API key takes its switch with it.
CREATE TABLE heartbeat_switches (
  api_key      uuid PRIMARY KEY REFERENCES api_keys (api_key) ON DELETE CASCADE,
  heartbeat_id text NOT NULL,
  armed_at     timestamptz NOT NULL DEFAULT now()
);
