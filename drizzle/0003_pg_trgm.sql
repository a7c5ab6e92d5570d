-- Trigram indexes make the leads search (a substring of name, email or phone) fast at
-- 100,000 leads. pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may
-- create it; PGlite ships it (src/server/db/client.ts loads it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
