-- A crash of the service counts against a document only when it was reading that document alone: a document
-- cut off by a crash is marked to be read alone next time, and a crash during that reading is counted.
-- `attempts` counted every crash against every document in flight and is no longer used.
alter table documents add column read_alone boolean not null default false;
alter table documents add column lone_crashes integer not null default 0;
alter table documents drop column attempts;
