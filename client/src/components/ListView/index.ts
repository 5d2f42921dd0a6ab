export { ListView, type ListViewBulkAction, type ListViewFilter, type ListViewProps } from './ListView';
export { buildListQuery, fetchList, listKey } from './list-query';
export { actionsColumn, changedOnColumn, ownersColumn, personName, RowAction, type ChangedOn } from './cells';
export { booleanFilter, relatedFilter, searchFilter } from './filters';
export { useDeleteAction, type DeleteActionOptions } from './useDeleteAction';
export { ListCard } from './ListCard';
export { tagFilter, tagsColumn, useTaggingEnabled, type TagRef } from './tags';
