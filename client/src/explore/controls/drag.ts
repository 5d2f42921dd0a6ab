/** Columns and metrics dragged from the datasource panel into controls. */
export const DRAG_TYPE = 'application/x-meridian-datasource-item';

export interface DragItem {
  kind: 'column' | 'metric';
  name: string;
}

export function startDrag(e: React.DragEvent, item: DragItem): void {
  e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(item));
  e.dataTransfer.effectAllowed = 'copy';
}

export function readDrag(e: React.DragEvent): DragItem | null {
  const text = e.dataTransfer.getData(DRAG_TYPE);
  if (!text) return null;
  e.preventDefault();
  try {
    return JSON.parse(text) as DragItem;
  } catch {
    return null;
  }
}
