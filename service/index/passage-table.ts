/** Per-passage columns indexed by ordinal: ids, datasource and document, weighted length, tombstones. */

/** The columns a snapshot stores; ordinals are array positions and every passage in it is live. */
export interface PassageColumns {
  passageIds: string[];
  documentIds: string[];
  datasourceIds: string[];
  documentOrdinals: Uint32Array;
  datasourceOrdinals: Uint16Array;
  lengths: Float32Array;
}

const maxDatasources = 0x10000;

export class PassageTable {
  /** Ordinals handed out so far, removed ones included (they are reclaimed by `compact`). */
  count = 0;
  liveCount = 0;
  deadCount = 0;
  /** Sum of live weighted lengths, for avgdl; a double so adds and removes cancel exactly. */
  liveLengthSum = 0;
  passageIds: string[] = [];
  datasourceIds: string[] = [];
  datasourceOrdinalById = new Map<string, number>();
  documentIds: string[] = [];
  datasourceOrdinals: Uint16Array = new Uint16Array(1024);
  lengths: Float32Array = new Float32Array(1024);
  dead: Uint32Array = new Uint32Array(32);
  private documentOrdinals: Uint32Array = new Uint32Array(1024);
  private documentOrdinalById = new Map<string, number>();
  private livePassagesByDocument = new Map<string, number[]>();
  private liveOrdinalById = new Map<string, number>();

  static fromColumns(columns: PassageColumns): PassageTable {
    const table = new PassageTable();
    const count = columns.passageIds.length;
    table.count = count;
    table.liveCount = count;
    table.passageIds = columns.passageIds;
    table.documentIds = columns.documentIds;
    table.datasourceIds = columns.datasourceIds;
    table.documentOrdinals = columns.documentOrdinals;
    table.datasourceOrdinals = columns.datasourceOrdinals;
    table.lengths = columns.lengths;
    table.dead = new Uint32Array((count >> 5) + 1);
    for (const [ordinal, id] of columns.datasourceIds.entries()) table.datasourceOrdinalById.set(id, ordinal);
    for (const [ordinal, id] of columns.documentIds.entries()) table.documentOrdinalById.set(id, ordinal);
    for (let ordinal = 0; ordinal < count; ordinal++) {
      table.liveLengthSum += columns.lengths[ordinal]!;
      table.liveOrdinalById.set(columns.passageIds[ordinal]!, ordinal);
      table.passagesOf(columns.documentIds[columns.documentOrdinals[ordinal]!]!).push(ordinal);
    }
    return table;
  }

  /** The live columns only; meaningful after `compact`, when every ordinal is live. */
  columns(): PassageColumns {
    return {
      passageIds: this.passageIds.slice(0, this.count),
      documentIds: this.documentIds,
      datasourceIds: this.datasourceIds,
      documentOrdinals: this.documentOrdinals.slice(0, this.count),
      datasourceOrdinals: this.datasourceOrdinals.slice(0, this.count),
      lengths: this.lengths.slice(0, this.count),
    };
  }

  liveOrdinalOf(passageId: string): number | undefined {
    return this.liveOrdinalById.get(passageId);
  }

  datasourceOrdinalOf(datasourceId: string): number | undefined {
    return this.datasourceOrdinalById.get(datasourceId);
  }

  isDead(ordinal: number): boolean {
    return (this.dead[ordinal >>> 5]! & (1 << (ordinal & 31))) !== 0;
  }

  append(passageId: string, documentId: string, datasourceId: string, length: number): number {
    const ordinal = this.count++;
    if (ordinal === this.lengths.length) this.growColumns(Math.max(1024, ordinal * 2));
    this.passageIds.push(passageId);
    this.datasourceOrdinals[ordinal] = this.internDatasource(datasourceId);
    this.documentOrdinals[ordinal] = this.internDocument(documentId);
    this.lengths[ordinal] = length;
    this.liveCount++;
    this.liveLengthSum += length;
    this.liveOrdinalById.set(passageId, ordinal);
    this.passagesOf(documentId).push(ordinal);
    return ordinal;
  }

  /** Tombstones one live passage. */
  remove(ordinal: number): void {
    if (this.isDead(ordinal)) return;
    this.dead[ordinal >>> 5]! |= 1 << (ordinal & 31);
    this.deadCount++;
    this.liveCount--;
    this.liveLengthSum -= this.lengths[ordinal]!;
    const passageId = this.passageIds[ordinal]!;
    if (this.liveOrdinalById.get(passageId) === ordinal) this.liveOrdinalById.delete(passageId);
    const documentId = this.documentIds[this.documentOrdinals[ordinal]!]!;
    const siblings = this.livePassagesByDocument.get(documentId);
    if (siblings === undefined) return;
    const remaining = siblings.filter((sibling) => sibling !== ordinal);
    if (remaining.length === 0) this.livePassagesByDocument.delete(documentId);
    else this.livePassagesByDocument.set(documentId, remaining);
  }

  /** Tombstones every live passage of a document; returns how many there were. */
  removeDocument(documentId: string): number {
    const ordinals = this.livePassagesByDocument.get(documentId);
    if (ordinals === undefined) return 0;
    this.livePassagesByDocument.delete(documentId);
    for (const ordinal of ordinals) this.remove(ordinal);
    return ordinals.length;
  }

  /**
   * A table of the live passages only, renumbered in order, with the old → new ordinal map
   * (-1 for removed) that the postings must be rewritten with. Unreferenced documents are dropped.
   */
  compact(): { table: PassageTable; remap: Int32Array } {
    const remap = new Int32Array(this.count).fill(-1);
    let next = 0;
    for (let ordinal = 0; ordinal < this.count; ordinal++) {
      if (!this.isDead(ordinal)) remap[ordinal] = next++;
    }
    const passageIds: string[] = [];
    const documentIds: string[] = [];
    const documentRemap = new Int32Array(this.documentIds.length).fill(-1);
    const documentOrdinals = new Uint32Array(next);
    const datasourceOrdinals = new Uint16Array(next);
    const lengths = new Float32Array(next);
    for (let ordinal = 0; ordinal < this.count; ordinal++) {
      const target = remap[ordinal]!;
      if (target < 0) continue;
      const document = this.documentOrdinals[ordinal]!;
      if (documentRemap[document] === -1) {
        documentRemap[document] = documentIds.length;
        documentIds.push(this.documentIds[document]!);
      }
      passageIds.push(this.passageIds[ordinal]!);
      documentOrdinals[target] = documentRemap[document]!;
      datasourceOrdinals[target] = this.datasourceOrdinals[ordinal]!;
      lengths[target] = this.lengths[ordinal]!;
    }
    const columns = { passageIds, documentIds, datasourceIds: [...this.datasourceIds] };
    const table = PassageTable.fromColumns({ ...columns, documentOrdinals, datasourceOrdinals, lengths });
    return { table, remap };
  }

  private passagesOf(documentId: string): number[] {
    let ordinals = this.livePassagesByDocument.get(documentId);
    if (ordinals === undefined) {
      ordinals = [];
      this.livePassagesByDocument.set(documentId, ordinals);
    }
    return ordinals;
  }

  private internDatasource(datasourceId: string): number {
    let ordinal = this.datasourceOrdinalById.get(datasourceId);
    if (ordinal === undefined) {
      ordinal = this.datasourceIds.length;
      if (ordinal === maxDatasources) throw new Error(`an index holds at most ${maxDatasources} datasources`);
      this.datasourceIds.push(datasourceId);
      this.datasourceOrdinalById.set(datasourceId, ordinal);
    }
    return ordinal;
  }

  private internDocument(documentId: string): number {
    let ordinal = this.documentOrdinalById.get(documentId);
    if (ordinal === undefined) {
      ordinal = this.documentIds.length;
      this.documentIds.push(documentId);
      this.documentOrdinalById.set(documentId, ordinal);
    }
    return ordinal;
  }

  private growColumns(capacity: number): void {
    const documentOrdinals = new Uint32Array(capacity);
    documentOrdinals.set(this.documentOrdinals);
    this.documentOrdinals = documentOrdinals;
    const datasourceOrdinals = new Uint16Array(capacity);
    datasourceOrdinals.set(this.datasourceOrdinals);
    this.datasourceOrdinals = datasourceOrdinals;
    const lengths = new Float32Array(capacity);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const dead = new Uint32Array((capacity >> 5) + 1);
    dead.set(this.dead);
    this.dead = dead;
  }
}
