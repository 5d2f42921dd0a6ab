/** A creator or editor as Superset's answers give one (`created_by`, `changed_by`), from a row's joined names; null without one. */
export function auditPerson(id: number | null, first: string | null, last: string | null): { id: number; first_name: string; last_name: string } | null {
  return id ? { id, first_name: first ?? '', last_name: last ?? '' } : null;
}
