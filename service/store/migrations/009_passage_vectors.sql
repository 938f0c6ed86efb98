-- Vectors of each passage and its sentences under one embedding model, written after the passage is
-- searchable lexically; `documents.passages_embedded` counts a document's passages with vectors of the
-- model in force, for the listings. A passage's row is replaced when the model changes.
create table passage_vectors (
  passage_id text primary key references passages (id) on delete cascade,
  document_id text not null references documents (id) on delete cascade,
  assistant_id text not null,
  model text not null,
  vectors bytea not null
);
create index passage_vectors_assistant on passage_vectors (assistant_id, model);
create index passage_vectors_document on passage_vectors (document_id, model);
alter table documents add column passages_embedded integer;
