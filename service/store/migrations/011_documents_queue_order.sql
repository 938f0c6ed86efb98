-- The ingestion queue is taken in created_order (010); its index follows.
create index documents_queue_order on documents (status, created_order);
