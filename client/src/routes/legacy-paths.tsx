import { hasPermission } from '@meridian/contracts/rules/permissions';
import { useNavigate } from '@tanstack/react-router';
import { useSessionUser } from '../auth/session';
import { AddDatasetModal } from '../datasets/AddDatasetModal';
import { DatasetListScreen } from '../datasets/DatasetListScreen';

// Superset's older addresses (bookmarks, links in docs and emails). Each opens its screen, or says what is coming.

/** `/dataset/add/`: the datasets list with the Add dataset modal open (for those who may add one); closing it leaves the list. */
export function DatasetAddScreen() {
  const navigate = useNavigate();
  const canWrite = hasPermission(useSessionUser(), 'can_write', 'Dataset');
  const toList = () => void navigate({ to: '/tablemodelview/list/' });
  return (
    <>
      <DatasetListScreen />
      {canWrite && <AddDatasetModal onClose={toList} onCreated={toList} />}
    </>
  );
}

