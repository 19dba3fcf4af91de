-- Catalog (Gamma-compatible, services/catalog): tags, series, events, catalog markets and their
-- links, comments (one level of replies) and public profiles. Every change NOTIFYs channel
-- `pmx_catalog` with "<table>:<key>[:<key>]" so the catalog's in-memory projections follow
-- within milliseconds; a bulk loader sets `pmx.catalog_notify = 'off'` for its transaction and
-- sends one `reload` instead. Addresses are stored lower-case.

CREATE TABLE catalog_tags (
  id                   bigserial PRIMARY KEY,
  label                text NOT NULL,
  slug                 text NOT NULL UNIQUE,
  requires_translation boolean NOT NULL DEFAULT false,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_series (
  id          bigserial PRIMARY KEY,
  ticker      text NOT NULL,
  slug        text NOT NULL UNIQUE,
  title       text NOT NULL,
  series_type text NOT NULL DEFAULT 'single',
  recurrence  text NOT NULL DEFAULT '',
  image       text NOT NULL DEFAULT '',
  icon        text NOT NULL DEFAULT '',
  active      boolean NOT NULL DEFAULT true,
  closed      boolean NOT NULL DEFAULT false,
  archived    boolean NOT NULL DEFAULT false,
  -- Wallet address or site identifier that listed it; '' = the exchange itself.
  creator     text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_events (
  id                bigserial PRIMARY KEY,
  ticker            text NOT NULL,
  slug              text NOT NULL UNIQUE,
  title             text NOT NULL,
  description       text NOT NULL DEFAULT '',
  resolution_source text NOT NULL DEFAULT '',
  start_date        timestamptz,
  creation_date     timestamptz NOT NULL DEFAULT now(),
  end_date          timestamptz,
  image             text NOT NULL DEFAULT '',
  icon              text NOT NULL DEFAULT '',
  active            boolean NOT NULL DEFAULT true,
  closed            boolean NOT NULL DEFAULT false,
  archived          boolean NOT NULL DEFAULT false,
  closed_time       timestamptz,
  creator           text NOT NULL DEFAULT '',
  event_metadata    jsonb NOT NULL DEFAULT '{}',
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

-- A catalog market optionally links to its order-book market (001/002 `markets`) by condition
-- id; outcomes and token ids then come from there and `outcomes` here is unused.
CREATE TABLE catalog_markets (
  id                bigserial PRIMARY KEY,
  condition_id      text UNIQUE REFERENCES markets (condition_id),
  question          text NOT NULL,
  slug              text NOT NULL UNIQUE,
  question_id       text NOT NULL DEFAULT '',
  description       text NOT NULL DEFAULT '',
  resolution_source text NOT NULL DEFAULT '',
  image             text NOT NULL DEFAULT '',
  icon              text NOT NULL DEFAULT '',
  start_date        timestamptz,
  end_date          timestamptz,
  outcomes          text[] NOT NULL DEFAULT '{Yes,No}',
  active            boolean NOT NULL DEFAULT true,
  closed            boolean NOT NULL DEFAULT false,
  archived          boolean NOT NULL DEFAULT false,
  closed_time       timestamptz,
  creator           text NOT NULL DEFAULT '',
  -- Collateral amounts (USDC, decimals) kept up to date by the operator or a ledger job.
  volume            numeric(30, 6) NOT NULL DEFAULT 0,
  volume_24hr       numeric(30, 6) NOT NULL DEFAULT 0,
  liquidity         numeric(30, 6) NOT NULL DEFAULT 0,
  competitive       double precision NOT NULL DEFAULT 0,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE catalog_event_markets (
  event_id  bigint NOT NULL REFERENCES catalog_events (id) ON DELETE CASCADE,
  market_id bigint NOT NULL REFERENCES catalog_markets (id) ON DELETE CASCADE,
  PRIMARY KEY (event_id, market_id)
);
CREATE INDEX catalog_event_markets_market ON catalog_event_markets (market_id);

CREATE TABLE catalog_event_tags (
  event_id bigint NOT NULL REFERENCES catalog_events (id) ON DELETE CASCADE,
  tag_id   bigint NOT NULL REFERENCES catalog_tags (id) ON DELETE CASCADE,
  PRIMARY KEY (event_id, tag_id)
);
CREATE INDEX catalog_event_tags_tag ON catalog_event_tags (tag_id);

CREATE TABLE catalog_market_tags (
  market_id bigint NOT NULL REFERENCES catalog_markets (id) ON DELETE CASCADE,
  tag_id    bigint NOT NULL REFERENCES catalog_tags (id) ON DELETE CASCADE,
  PRIMARY KEY (market_id, tag_id)
);
CREATE INDEX catalog_market_tags_tag ON catalog_market_tags (tag_id);

CREATE TABLE catalog_series_events (
  series_id bigint NOT NULL REFERENCES catalog_series (id) ON DELETE CASCADE,
  event_id  bigint NOT NULL REFERENCES catalog_events (id) ON DELETE CASCADE,
  PRIMARY KEY (series_id, event_id)
);
CREATE INDEX catalog_series_events_event ON catalog_series_events (event_id);

CREATE TABLE catalog_profiles (
  id                      bigserial PRIMARY KEY,
  -- The address shown and looked up (proxy wallet, or the wallet itself); base_address the signer.
  proxy_wallet            text NOT NULL UNIQUE,
  base_address            text NOT NULL,
  name                    text NOT NULL DEFAULT '',
  pseudonym               text NOT NULL DEFAULT '',
  bio                     text NOT NULL DEFAULT '',
  profile_image           text NOT NULL DEFAULT '',
  x_username              text NOT NULL DEFAULT '',
  display_username_public boolean NOT NULL DEFAULT false,
  verified_badge          boolean NOT NULL DEFAULT false,
  is_mod                  boolean NOT NULL DEFAULT false,
  is_creator              boolean NOT NULL DEFAULT false,
  created_at              timestamptz NOT NULL DEFAULT now(),
  updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_profiles_base_address ON catalog_profiles (base_address);

-- parent_comment_id is always a top-level comment (replies are one level deep).
CREATE TABLE catalog_comments (
  id                 bigserial PRIMARY KEY,
  body               text NOT NULL,
  parent_entity_type text NOT NULL CHECK (parent_entity_type IN ('Event', 'Series', 'market')),
  parent_entity_id   bigint NOT NULL,
  parent_comment_id  bigint REFERENCES catalog_comments (id) ON DELETE CASCADE,
  user_address       text NOT NULL,
  reply_address      text NOT NULL DEFAULT '',
  reactions          jsonb NOT NULL DEFAULT '[]',
  reaction_count     integer NOT NULL DEFAULT 0,
  report_count       integer NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_comments_entity ON catalog_comments (parent_entity_type, parent_entity_id);
CREATE INDEX catalog_comments_parent ON catalog_comments (parent_comment_id);

-- Trigger arguments name the key columns put in the payload, e.g. catalog_event_tags:12:7.
CREATE FUNCTION catalog_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  key_column text;
  payload    text;
BEGIN
  IF coalesce(current_setting('pmx.catalog_notify', true), '') = 'off' THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    payload := TG_TABLE_NAME;
    FOREACH key_column IN ARRAY TG_ARGV LOOP
      payload := payload || ':' || coalesce(to_jsonb(OLD) ->> key_column, '');
    END LOOP;
    PERFORM pg_notify('pmx_catalog', payload);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    payload := TG_TABLE_NAME;
    FOREACH key_column IN ARRAY TG_ARGV LOOP
      payload := payload || ':' || coalesce(to_jsonb(NEW) ->> key_column, '');
    END LOOP;
    PERFORM pg_notify('pmx_catalog', payload);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER catalog_tags_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_tags
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_series_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_series
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_events_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_events
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_markets_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_markets
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_profiles_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_profiles
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_comments_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_comments
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('id');
CREATE TRIGGER catalog_event_markets_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_event_markets
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('event_id', 'market_id');
CREATE TRIGGER catalog_event_tags_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_event_tags
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('event_id', 'tag_id');
CREATE TRIGGER catalog_market_tags_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_market_tags
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('market_id', 'tag_id');
CREATE TRIGGER catalog_series_events_notify AFTER INSERT OR UPDATE OR DELETE ON catalog_series_events
  FOR EACH ROW EXECUTE FUNCTION catalog_notify('series_id', 'event_id');
