import { IconShieldLock } from '@tabler/icons-react';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { useNavigate } from '@tanstack/react-router';
import { useSessionUser } from '../auth/session';
import { ComingSoon } from '../components/ComingSoon';
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

export const RowLevelSecurityListScreen = () => (
  <ComingSoon
    title="Row level security"
    icon={<IconShieldLock size={28} stroke={1.5} />}
    description="Filters added to every query on a dataset for the roles they name, so each team sees only its rows."
  />
);
