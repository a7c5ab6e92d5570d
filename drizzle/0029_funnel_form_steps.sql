CREATE INDEX "analytics_sessions_form_started_idx" ON "analytics_sessions" USING btree ("session_id") WHERE "analytics_sessions"."form_starts" > 0;--> statement-breakpoint
CREATE INDEX "analytics_sessions_form_seen_idx" ON "analytics_sessions" USING btree ("session_id") WHERE "analytics_sessions"."form_starts" > 0 or "analytics_sessions"."form_views" > 0;--> statement-breakpoint
-- The Analytics funnel: a visitor who started the lead form has seen it (docs/product-rules.md,
-- "Analytics"), so "Saw the form" can never be smaller than "Started the form". Until now
-- analytics_hourly_visits.saw_form counted only visitors with a form_view event, and a visitor
-- whose form_view was lost (a dropped request, or an event sent by hand) but whose form_start
-- arrived was counted as having started the form without having seen it. analytics_sessions
-- keeps every visitor's counts, so the visitors of each rollup row who started the form
-- without a recorded form_view are added to that row's saw_form.
UPDATE analytics_hourly_visits v
SET saw_form = v.saw_form + x.started_unseen
FROM (
  SELECT first_hour, coalesce(source, '') AS source, coalesce(utm_source, '') AS utm_source, coalesce(utm_medium, '') AS utm_medium,
         coalesce(utm_campaign, '') AS utm_campaign, coalesce(landing_page, '') AS landing_page, count(*)::int AS started_unseen
  FROM analytics_sessions
  WHERE first_hour IS NOT NULL AND form_starts > 0 AND form_views = 0
  GROUP BY 1, 2, 3, 4, 5, 6
) x
WHERE v.hour = x.first_hour AND v.source = x.source AND v.utm_source = x.utm_source AND v.utm_medium = x.utm_medium
  AND v.utm_campaign = x.utm_campaign AND v.landing_page = x.landing_page;
