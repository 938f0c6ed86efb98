/** Bounds of the interface spec, section 8. One place, so schemas, docs and tests agree. */
export const limits = {
  messageLength: { min: 1, max: 5000 },
  queryLength: { min: 1, max: 500 },
  maxResults: { min: 1, max: 20, default: 10 },
  datasourceIds: { max: 50 },
  idUserLength: { min: 1, max: 256 },
  pdfSlicePages: 3,
  refreshesPerToken: 1,
  /** Most documents the sources endpoint lists (it also says how many there are). */
  sourcesListed: 200,
} as const;
