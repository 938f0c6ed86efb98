-- Sentence positions and evidence are only ever read back whole, never queried inside: json keeps the
-- text as written and makes a document's commit ~30% cheaper than jsonb's binary conversion.
alter table passages
  alter column sentences type json using sentences::json,
  alter column evidence type json using evidence::json;
