/** Superset's TagType: a tag set by hand (custom) or one Superset keeps itself (by type, owner, favourite). */
export const TAG_TYPES = { custom: 1, type: 2, owner: 3, favorited_by: 4 } as const;

/** A tag as chart, dashboard and saved query answers carry it. */
export interface TagRef {
  id: number;
  name: string;
  type: number;
}
